"""mail-compose: write an email in the local webmail: a new message to given people, or a reply to a
given message of the inbox.

The recipients and the message replied to come from the mail seed (its correspondents and its inbox);
subject and text are made up per task. The checker reads the mail database: exactly one new message, in
Sent, to exactly those addresses, with that subject and text (a reply: linked to the right message,
subject `Re: ...`, its text first, the quote the site adds allowed after it); no other message moved.
"""

from __future__ import annotations

import random
from typing import Any

from synth.families.web import (
    DONE,
    SCROLL_TO_END,
    WebFamily,
    WebTask,
    click,
    faker,
    goto,
    key,
    render_check,
    type_into,
)

T = "mail-compose"
AUTOMATED = (
    "noreply", "no-reply", "newsletter", "orders", "billing", "bookings", "events", "hr@", "it.",
    "facilities", "dentist", "landlord",
)  # fmt: skip
"""Senders that are not people (a local part starting so): nobody writes to them."""
TOPICS = [
    "Budget review", "Printer on the 2nd floor", "Team offsite", "Quarterly report", "Visitor badges",
    "Parking permits", "Lunch and learn", "Desk move", "Training course", "Laptop refresh",
    "Client visit", "Office plants", "Hackathon", "Meeting notes", "Conference talk",
]  # fmt: skip
ASKS = [
    "Could you send me the latest figures by {day}?",
    "Can we meet on {day} at {time} to go through it?",
    "I have booked {place} for {day} at {time}; please let me know if that does not suit you.",
    "Please add your comments to the shared document before {day}.",
    "The draft is ready; I would like your go-ahead by {day}.",
]
REPLIES = [
    "Thanks, that works for me. I will be there at {time}.",
    "Thank you! I can do {day} at {time} if that suits you.",
    "Got it, thanks. I will send the details by {day}.",
    "Thanks for letting me know. {day} at {time} is fine.",
    "Sounds good. Let us talk on {day} at {time}.",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
PLACES = ["Severn", "Avon", "Clifton", "the Harbour room", "the Booth"]


def people(seed: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, address) of every person who wrote to the mailbox (no automated senders), sorted."""
    found = {
        (m["from_name"], m["from"])
        for m in seed.get("messages", [])
        if "from" in m and not (m["from"].split("@")[0] + "@").startswith(AUTOMATED)
    }
    return sorted(found)


def sentence(rng: random.Random, choices: list[str]) -> str:
    time = f"{rng.randint(9, 16)}:{rng.choice(['00', '30'])}"
    return rng.choice(choices).format(day=rng.choice(DAYS), time=time, place=rng.choice(PLACES))


class MailCompose(WebFamily):
    name = T
    category = "form"
    site = "mail"

    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        messages = seed.get("messages", [])
        contacts = people(seed)
        if len(contacts) < 2:
            raise ValueError(f"{T}: fewer than 2 correspondents in the seed")
        inbox = [
            (i, m)
            for i, m in enumerate(messages, 1)
            if m["folder"] == "inbox" and "from" in m and (m["from_name"], m["from"]) in contacts
        ]
        variant = "reply" if inbox and (difficulty == 3 or rng.random() < 0.4) else "new"
        folders = [m["folder"] for m in messages]
        spec: dict[str, Any] = {"seeded": len(messages), "variant": variant, "folders": folders}
        if variant == "new":
            chosen = rng.sample(contacts, 1 if difficulty == 1 else 2)
            fake = faker(rng)
            subject = f"{rng.choice(TOPICS)}: {fake.month_name()} {rng.randint(2, 27)}"
            first = chosen[0][0].split()[0]
            body = f"Hi {first}, " + sentence(rng, ASKS) + " Thanks, Alex"
            to = ", ".join(address for _, address in chosen)
            who = " and ".join(f"{name} ({address})" for name, address in chosen)
            spec.update(to=sorted(a.lower() for _, a in chosen), subject=subject, body=body, parent=None)
            phrasing = rng.randrange(2)
            if phrasing == 0:
                instruction = (
                    f"Using the webmail at http://127.0.0.1:8080/, send a new email to {who} with the "
                    f'subject "{subject}" and this text:\n\n{body}'
                )
            else:
                instruction = (
                    f"Write an email from the mail site at http://127.0.0.1:8080/. It goes to {who}, the "
                    f'subject is "{subject}", and the message is exactly:\n\n{body}'
                )
            actions = [
                goto(),
                click("nav-compose"),
                type_into("to", to),
                type_into("subject", subject),
                type_into("body", body),
                SCROLL_TO_END,
                click("send-button"),
                DONE,
            ]
            expects = {"subject": subject, "body": body, **{f"to{i}": a for i, (_, a) in enumerate(chosen)}}
            params: dict[str, Any] = {"variant": variant, "to": [a for _, a in chosen]}
            title = f"Send an email with a given subject and text to {len(chosen)} people in a local webmail"
        else:
            mid, message = rng.choice(inbox)
            body = sentence(rng, REPLIES)
            subject = message["subject"]
            reply_subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
            spec.update(to=[message["from"].lower()], subject=reply_subject, body=body, parent=mid)
            instruction = (
                f"In the webmail at http://127.0.0.1:8080/, reply to the email from {message['from_name']} "
                f'with the subject "{subject}" (dated {message["date"][:10]}). Keep the recipient and '
                f"subject the site fills in, and start the reply with this text:\n\n{body}"
            )
            actions = [
                goto(),
                type_into("search-input", subject),
                key("Enter"),
                click(f"msg-link-{mid}"),
                SCROLL_TO_END,
                click("reply-link"),
                type_into("body", body),
                SCROLL_TO_END,
                click("send-button"),
                DONE,
            ]
            expects = {"subject": subject, "body": body, "sender": message["from_name"]}
            params = {"variant": variant, "message": mid}
            title = "Reply to a given email in a local webmail with a given text"
        doc = (
            f"Checks the mail database: exactly one new message, in Sent, to {', '.join(spec['to'])}, "
            f"subject {spec['subject']!r}, its text {'starting with' if variant == 'reply' else 'being'} "
            "the given one; no other message moved."
        )
        return WebTask(
            title=title,
            instruction=instruction,
            seed=seed,
            actions=actions,
            check=render_check(T, spec, doc),
            params=params,
            expects=expects,
            keywords=["mail", "email", "compose", "reply" if variant == "reply" else "form"],
        )
