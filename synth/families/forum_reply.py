"""forum-reply: reply to a given thread of the local forum with a given text (and, above the easiest
level, upvote the thread's latest post first).

The thread comes from the forum seed (open, not locked; for an upvote its latest post is someone else's
and not yet upvoted by the user); the reply text is made up per task. The checker reads the database:
exactly one new post, in that thread, by the user, with that text; with an upvote, exactly one new vote,
the user's, on that post, and its score one higher; nothing else written.
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
    goto,
    key,
    render_check,
    type_into,
)

T = "forum-reply"
OPENERS = ["Thanks for this!", "Good question.", "Same here.", "Great thread.", "Helpful, thanks."]
POINTS = [
    "I had the same problem last {season} and {fix} sorted it out.",
    "In my experience {fix} works best, at least for the first {n} weeks.",
    "Have you tried {fix}? It made a big difference for me.",
    "I would start with {fix} and see how it goes after {n} days.",
]
FIXES = [
    "a slower start", "a fresh set of notes", "checking it every morning", "asking at the local shop",
    "keeping a simple log", "a smaller first step", "a second opinion", "reading the manual again",
]  # fmt: skip
SEASONS = ["spring", "summer", "autumn", "winter"]
MAX_LINK_CHARS = 36
"""A longer title wraps in the thread list's narrow column, and the centre of a wrapped link's box can
fall between its lines (a click there hits nothing): such a thread is opened by its address."""


def reply_text(rng: random.Random) -> str:
    point = rng.choice(POINTS).format(season=rng.choice(SEASONS), fix=rng.choice(FIXES), n=rng.randint(2, 6))
    return f"{rng.choice(OPENERS)} {point}"


class ForumReply(WebFamily):
    name = T
    category = "form"
    site = "forum"

    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        me = seed.get("current_user", "alex")
        users = [u["username"] for u in seed.get("users", [])]
        names = {u["username"]: u["display_name"] for u in seed.get("users", [])}
        threads = seed.get("threads", [])
        post_ids: list[list[int]] = []
        next_id = 1
        for t in threads:
            post_ids.append(list(range(next_id, next_id + len(t["posts"]))))
            next_id += len(t["posts"])
        upvote = difficulty >= 2
        open_threads = [
            (i, t)
            for i, t in enumerate(threads)
            if not t.get("locked")
            and (
                not upvote or (t["posts"][-1]["author"] != me and me not in t["posts"][-1].get("voters", []))
            )
        ]
        if not open_threads:
            raise ValueError(f"{T}: no open thread to reply to")
        index, thread = rng.choice(open_threads)
        tid = index + 1
        text = reply_text(rng)
        last = thread["posts"][-1]
        last_id = post_ids[index][-1]
        if len(thread["title"]) <= MAX_LINK_CHARS:
            actions = [
                goto(),
                type_into("search-input", thread["title"]),
                key("Enter"),
                click(f"thread-link-{tid}"),
            ]
        else:
            actions = [goto(), goto(f"thread/{tid}")]
        actions.append(SCROLL_TO_END)
        if upvote:
            actions += [click(f"upvote-{last_id}"), SCROLL_TO_END]
        actions += [type_into("reply-body", text), click("reply-submit"), DONE]
        author = names.get(last["author"], last["author"])
        vote = f" Before replying, upvote the latest post in it (by {author}, {last['created']})."
        instruction = (
            f'On the forum at http://127.0.0.1:8080/, open the thread "{thread["title"]}".'
            f"{vote if upvote else ''} Then post this reply in the thread:\n\n{text}"
        )
        spec = {
            "thread": tid,
            "posts": next_id - 1,
            "threads": len(threads),
            "votes": sum(len(p.get("voters", [])) for t in threads for p in t["posts"]),
            "user_id": users.index(me) + 1 if me in users else None,
            "body": text,
            "upvote": last_id if upvote else None,
            "score": last.get("score", 0),
        }
        voted = f"; and exactly one new vote, the user's, on post {last_id}" if upvote else ""
        doc = (
            f"Checks the forum database: exactly one new post, in thread {tid}, by the user, with the given "
            f"text{voted}."
        )
        return WebTask(
            title=(
                "Upvote the latest post of a forum thread and reply with a given text"
                if upvote
                else "Reply to a forum thread with a given text"
            ),
            instruction=instruction,
            seed=seed,
            actions=actions,
            check=render_check(T, spec, doc),
            params={"thread": tid, "upvote": upvote},
            expects={"thread": thread["title"], "body": text, **({"author": author} if upvote else {})},
            keywords=["forum", "reply", "upvote" if upvote else "form"],
        )
