"""shop-order: buy a product from the local shop with given details (quantity, name, address, shipping).

The product comes from the shop's seed (in stock, enough of it); the customer and address are made up per
task. The agent finds the product (by search, or through its category), puts the quantity in the cart,
and checks out; at the hardest level the cart already holds something from an earlier visit that must
not be ordered. The checker reads the shop's database: exactly one new order, with exactly that item and
those details, and an empty cart.
"""

from __future__ import annotations

import random
import re
from typing import Any

from synth.families.web import (
    DONE,
    WebFamily,
    WebTask,
    click,
    faker,
    goto,
    key,
    render_check,
    type_into,
)

T = "shop-order"
SHIPPING = {
    "standard": "standard shipping",
    "express": "express (next-day) shipping",
    "pickup": "pick-up in store as the shipping method",
}
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four"}
MAX_SEARCH_HITS = 6
"""A search term that matches more products would push the product's link far down the results."""


def search_term(product: dict[str, Any], products: list[dict[str, Any]]) -> str | None:
    """A word of the product's name a user would search for, matching few products (as the shop's
    LIKE search does: name, description or SKU, ASCII case ignored)."""
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", product["name"])]
    best: tuple[int, str] | None = None
    for word in sorted(set(words)):
        low = word.lower()
        hits = sum(low in f"{p['name']} {p.get('description', '')} {p['sku']}".lower() for p in products)
        if hits <= MAX_SEARCH_HITS and (best is None or hits < best[0]):
            best = (hits, word)
    return best[1] if best else None


class ShopOrder(WebFamily):
    name = T
    category = "multi-page"
    site = "shop"

    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        products = seed["products"]
        ids = {p["sku"]: i for i, p in enumerate(products, 1)}
        buyable = [p for p in products if p["stock"] >= 1]
        if not buyable:
            raise ValueError(f"{T}: nothing in stock in the seed")
        product = rng.choice(buyable)
        quantity = min(product["stock"], rng.randint(*{1: (1, 2), 2: (2, 4), 3: (1, 3)}[difficulty]))
        fake = faker(rng)
        customer = f"{fake.first_name()} {fake.last_name()}"
        address = f"{fake.building_number()} {fake.street_name()}, {fake.city()} {fake.postcode()}"
        shipping = rng.choice(sorted(SHIPPING))
        pid = ids[product["sku"]]
        term = search_term(product, products)
        route = "search" if term and (difficulty != 2 or rng.random() < 0.5) else "category"
        leftover = None
        if difficulty == 3:
            others = [p for p in buyable if p["sku"] != product["sku"]]
            leftover = rng.choice(others)
            seed["cart"] = [{"sku": leftover["sku"], "quantity": 1}]
        elif seed.get("cart"):
            seed["cart"] = []

        actions = [goto()]
        if route == "search":
            actions += [type_into("search-input", term or ""), key("Enter")]
        else:
            actions.append(click(f"category-{product['category']}"))
        actions += [
            click(f"product-link-{pid}"),
            type_into("quantity-input", str(quantity)),
            click("add-to-cart"),
        ]
        if leftover is not None:
            actions.append(click(f"remove-{ids[leftover['sku']]}"))
        actions += [
            click("checkout-link"),
            type_into("name", customer),
            type_into("address", address),
            click(f"shipping-{shipping}"),
            click("place-order"),
            DONE,
        ]
        expects = {
            "product": product["name"],
            "quantity": NUMBERS.get(quantity, str(quantity)),
            "customer": customer,
            "address": address,
            "shipping": SHIPPING[shipping],
        }
        spec = {
            "seeded_orders": len(seed.get("orders", [])),
            "customer": customer,
            "address": address,
            "shipping": shipping,
            "items": [[product["sku"], quantity]],
        }
        count = NUMBERS.get(quantity, str(quantity))
        thing = f"{count} of the {product['name']}" if quantity > 1 else f"one {product['name']}"
        phrasing = rng.randrange(3)
        ship = SHIPPING[shipping]
        if phrasing == 0:
            instruction = (
                f"Use the shop at http://127.0.0.1:8080/ to order {thing}, in a single order, for "
                f"{customer}, delivered to {address}, with {ship}."
            )
        elif phrasing == 1:
            instruction = (
                f"Please buy {thing} from the web shop at http://127.0.0.1:8080/. Check out as "
                f"{customer} with the delivery address {address} and choose {ship}."
            )
        else:
            instruction = (
                f"{customer} wants {thing}. Place the order on http://127.0.0.1:8080/: deliver it "
                f"to {address}, with {ship}."
            )
        if leftover is not None:
            instruction += (
                f" The cart still holds the {leftover['name']} from an earlier visit: it must not be "
                "part of the order."
            )
        doc = (
            f"Checks the shop's database: exactly one new order, of {quantity} x {product['sku']}, for "
            f"{customer} at {address}, shipped {shipping}; the cart is empty again."
        )
        return WebTask(
            title=f"Order {quantity} x {product['name']} from the local shop with given checkout details",
            instruction=instruction,
            seed=seed,
            actions=actions,
            check=render_check(T, spec, doc),
            params={
                "sku": product["sku"],
                "quantity": quantity,
                "shipping": shipping,
                "route": route,
                "leftover": leftover["sku"] if leftover else None,
            },
            expects=expects,
            keywords=["shop", "cart", "checkout", "form"],
        )
