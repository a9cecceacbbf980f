"""What the recording proxy adds to a model call, and how it compares with LiteLLM's proxy (issue #3).

One fake OpenAI-compatible upstream answers every call at once with a fixed small completion (streamed
as SSE when asked). The same load, a fixed short chat with a tool definition, is sent three ways:

    direct     load generator -> upstream
    ours       load generator -> our proxy (pass-through, recording to SQLite) -> upstream
    litellm    load generator -> LiteLLM's proxy server -> upstream

at concurrency 1, 64 and 256, streamed and not. Each cell is a fixed number of requests after a warmup;
the latency of a request is the time from writing it to reading the last byte of its answer (the whole
SSE body for streams). The table gives p50/p99 latency, requests/s, the CPU time the server under test
spent per request, what each proxy adds to the direct p50/p99, and our throughput as a multiple of
LiteLLM's.

Run it from the repository root:

    .venv/bin/python -m bench.proxy_overhead                      # everything (installs LiteLLM once)
    .venv/bin/python -m bench.proxy_overhead --modes direct,ours  # without LiteLLM
    .venv/bin/python -m bench.proxy_overhead --json results.json --markdown

Every server runs in a process of its own, on 127.0.0.1 only. On a machine with two or more CPUs the
proxy under test is pinned to the last CPU and everything else (upstream, load generator) to the others,
so both proxies get one core of their own and the harness never competes with them (`--no-pin` leaves
placement to the OS). LiteLLM is installed on first use, at a pinned version, into its own virtual
environment under `${FORGE_HOME:-~/.cache/openforge}/bench-venvs/litellm`; it is never a dependency of
the project. Every process started here is stopped on exit, also on Ctrl-C or SIGTERM.

The load generator is a minimal HTTP/1.1 client (asyncio protocol + httptools' parser on uvloop, one
keep-alive connection per concurrent request) so that it costs a few tens of microseconds a request and is
not what limits the numbers. `--upstream-delay-ms` makes the upstream wait before answering.

Modules: `calls` (the request and the check of its answer), `upstream` (the fake upstream), `roles` (the
servers this package starts as copies of itself, and our proxy), `litellm`, `processes` (starting and
stopping children), `load` (the load generator and one measured cell), `report` (table, JSON, machine),
`orchestrate` (one whole run) and `__main__` (the command line).
"""
