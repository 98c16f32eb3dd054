"""The eval runner: play an agent over tasks through the HTTP API and write a run directory.

A run directory holds ``run.json`` (what was run), ``results.jsonl`` (one record per task x trial,
flushed as each finishes), ``summary.json`` and ``report.html``. Modules: ``agents`` (the agent
interface, oracle and noop), ``openai_agent`` (an LLM agent), ``runner`` (scheduling, resume),
``summary``, ``report``, ``junit``, ``shard``, ``merge``, ``cli``.
"""
