"""Deterministically generate an nginx access log (combined format) with a few malformed lines.

Usage: python3 gen_access_log.py OUTPUT_PATH
"""
import random
import sys
from datetime import datetime, timedelta, timezone


def generate() -> str:
    rng = random.Random(4242)
    heavy = [("203.0.113.9", 41), ("198.51.100.23", 37), ("2001:db8::7", 30), ("192.0.2.44", 30),
             ("10.0.0.5", 22), ("10.0.0.12", 22), ("172.16.4.20", 19)]
    ips = [ip for ip, n in heavy for _ in range(n)]
    tail = [f"{rng.choice(['198.18', '100.64', '192.168'])}.{rng.randint(0, 20)}.{rng.randint(1, 254)}" for _ in range(70)]
    for ip in tail:
        ips.extend([ip] * rng.randint(1, 5))
    rng.shuffle(ips)

    pages = ["/", "/index.html", "/about", "/products", "/products/42", "/static/app.js", "/static/site.css",
             "/favicon.ico", "/login", "/search?q=shoes", "/search?q=red+hat&page=2"]
    api = ["/api/orders", "/api/orders?status=open", "/api/cart", "/api/cart?id=991", "/api/payments",
           "/api/users/17", "/api/report?from=2024-06-01&to=2024-06-07"]
    agents = ["Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0", "curl/8.5.0",
              "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) Safari/605.1.15", "Googlebot/2.1 (+http://www.google.com/bot.html)",
              "python-requests/2.31.0"]
    when = datetime(2024, 6, 14, 6, 25, 1, tzinfo=timezone(timedelta(hours=2)))
    lines = []
    for ip in ips:
        when += timedelta(seconds=rng.randint(0, 40))
        stamp = when.strftime("%d/%b/%Y:%H:%M:%S %z")
        roll = rng.random()
        if roll < 0.02:
            request, status = "-", 400
        else:
            is_api = rng.random() < 0.45
            path = rng.choice(api if is_api else pages)
            method = rng.choice(["GET", "POST", "PUT"]) if is_api else "GET"
            request = f"{method} {path} HTTP/1.1"
            r = rng.random()
            if is_api and r < 0.22:
                status = rng.choice([500, 502, 503, 504])
            elif r < 0.30:
                status = rng.choice([301, 304, 404, 404, 400])
            else:
                status = 200
        size = "-" if status == 304 else str(rng.randint(120, 48000))
        ref = rng.choice(["-", "https://shop.example.com/", "https://www.google.com/"])
        user = rng.choice(["-", "-", "-", "alice"])
        lines.append(f'{ip} - {user} [{stamp}] "{request}" {status} {size} "{ref}" "{rng.choice(agents)}"')
    # a 5xx whose request line is unusable, plus malformed lines
    lines.insert(57, f'198.51.100.23 - - [14/Jun/2024:07:02:11 +0200] "-" 503 0 "-" "-"')
    lines.insert(88, "")
    lines.insert(140, '203.0.113.9 - - [14/Jun/2024:07:31:40 +0200] "GET /api/orders HTTP/1.1" 50')
    lines.insert(201, "GET /api/payments HTTP/1.1 502")
    lines.insert(260, '2001:db8::7 - - [14/Jun/2024:08:10:02 +0200] "POST /api/cart HTTP/1.1" 5xx 311 "-" "curl/8.5.0"')
    lines.insert(333, "")
    lines.insert(334, "\tconnection reset by peer")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], "w") as fh:
        fh.write(generate())
