"""The offline task families, by domain: name → `module:Class` (envs.plugins resolves it)."""

from __future__ import annotations

from envs.plugins import load_plugin
from synth.errors import UnknownDomain
from synth.families.base import Family

FAMILIES: dict[str, dict[str, str]] = {
    "claw": {
        "organize-files": "synth.families.organize_files:OrganizeFiles",
        "archive-checksums": "synth.families.archive_checksums:ArchiveChecksums",
        "backup-retention": "synth.families.backup_retention:BackupRetention",
        "notes-index": "synth.families.notes_index:NotesIndex",
        "redact-secrets": "synth.families.redact_secrets:RedactSecrets",
        "csv-aggregate": "synth.families.csv_aggregate:CsvAggregate",
        "json-records": "synth.families.json_records:JsonRecords",
        "sqlite-report": "synth.families.sqlite_report:SqliteReport",
        "log-report": "synth.families.log_report:LogReport",
        "git-chore": "synth.families.git_chore:GitChore",
        "config-edit": "synth.families.config_edit:ConfigEdit",
        "script-fix": "synth.families.script_fix:ScriptFix",
        "cron-schedule": "synth.families.cron_schedule:CronSchedule",
        "http-api": "synth.families.http_api:HttpApi",
    },
    "browser": {
        "shop-order": "synth.families.shop_order:ShopOrder",
        "shop-lookup": "synth.families.shop_lookup:ShopLookup",
        "mail-compose": "synth.families.mail_compose:MailCompose",
        "calendar-book": "synth.families.calendar_book:CalendarBook",
        "wiki-edit": "synth.families.wiki_edit:WikiEdit",
        "forum-reply": "synth.families.forum_reply:ForumReply",
    },
}


def domains() -> list[str]:
    return sorted(FAMILIES)


def families(domain: str, names: list[str] | None = None) -> list[Family]:
    """The domain's families (all, or those named: a registered name, or any `module:Class`), instantiated."""
    if domain not in FAMILIES:
        raise UnknownDomain(domain, domains())
    table = FAMILIES[domain]
    unknown = [n for n in names or [] if n not in table and ":" not in n]
    if unknown:
        raise UnknownDomain(f"{domain}: families {', '.join(unknown)}", sorted(table))
    return [load_plugin(name, table, "family")() for name in names or sorted(table)]
