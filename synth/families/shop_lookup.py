"""shop-lookup: find the cheapest or the most expensive product of a category in the local shop (in stock
only, at the harder levels), and answer with its name or its price.

The category comes from the shop's seed; its products get new prices per task (distinct, so there is one
answer, and a seed's answer cannot be remembered from another task), and at the harder levels the
extreme product is out of stock, so the agent must read the stock column too. The checker compares the
final answer (`/app/answer.txt`) with the one name or price, after normalising case, spacing and money
formatting: a list of candidates fails.
"""

from __future__ import annotations

import random
from typing import Any

from synth.families.web import WebFamily, WebTask, answer, click, goto, money, render_check

T = "shop-lookup"
MIN_PRODUCTS = 3


class ShopLookup(WebFamily):
    name = T
    category = "lookup"
    site = "shop"

    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        products = seed["products"]
        names = {c["slug"]: c["name"] for c in seed["categories"]}
        slugs = sorted({p["category"] for p in products})
        usable = [s for s in slugs if sum(p["category"] == s for p in products) >= MIN_PRODUCTS]
        if not usable:
            raise ValueError(f"{T}: no category with {MIN_PRODUCTS} products")
        slug = rng.choice(usable)
        members = [p for p in products if p["category"] == slug]
        dollars = rng.sample(range(5, 400), len(members))
        for p, whole in zip(members, dollars, strict=True):
            p["price_cents"] = whole * 100 + rng.choice([0, 49, 50, 95, 99])
            p["stock"] = max(p["stock"], 1)
        cheapest = rng.random() < 0.5
        ranked = sorted(members, key=lambda p: p["price_cents"], reverse=not cheapest)
        in_stock = difficulty >= 2
        if in_stock:
            ranked[0]["stock"] = 0  # the extreme one cannot be bought: the answer is the next
        target = ranked[1] if in_stock else ranked[0]
        ask = rng.choice(["name", "price"]) if difficulty >= 2 else "name"
        text = target["name"] if ask == "name" else money(target["price_cents"])
        extreme = "cheapest" if cheapest else "most expensive"
        category = names.get(slug, slug)
        stock_rule = " that is in stock (it can be bought right now)" if in_stock else ""
        what = "What is its name?" if ask == "name" else "What does it cost?"
        phrasing = rng.randrange(2)
        if phrasing == 0:
            instruction = (
                f"In the shop at http://127.0.0.1:8080/, find the {extreme} product in the {category} "
                f"category{stock_rule}. {what}"
            )
        else:
            instruction = (
                f"I am looking at the {category} category of the web shop at http://127.0.0.1:8080/. "
                f"Which product there is the {extreme}{stock_rule}? "
                + ("Tell me its name." if ask == "name" else "Tell me its price.")
            )
        sort = "sort-price-asc" if cheapest else "sort-price-desc"
        actions = [goto(), click(f"category-{slug}"), click(sort), answer(text)]
        spec = {"ask": ask, "name": target["name"], "cents": target["price_cents"]}
        doc = (
            f"Checks the final answer: the {extreme} product of {category}{' in stock' if in_stock else ''}"
            f" is {target['name']} at {money(target['price_cents'])}; the answer must be its {ask}."
        )
        return WebTask(
            title=f"Find the {extreme} product of a category in the local shop and give its {ask}",
            instruction=instruction,
            seed=seed,
            actions=actions,
            check=render_check(T, spec, doc),
            params={"category": slug, "extreme": extreme, "in_stock": in_stock, "ask": ask},
            expects={"category": category},
            keywords=["shop", "lookup", "sort", "price"],
            answer=text,
        )
