"""Inspect AI: the ``office`` task played by Inspect's scripted mock model (no network). The gold
tool calls of tasks of every category score 1.0, a wrong solution 0; the model is offered the
tools of the current app only; ``inspect eval officesim/office`` finds the task."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="Inspect AI is the `inspect` extra: pip install -e '.[inspect]'")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from officesim.apps import APPS, DEFAULT_TOOLSET, apps_for  # noqa: E402
from officesim.inspect import office  # noqa: E402
from officesim.tasks.gold import gold_actions  # noqa: E402
from officesim.tasks.loader import load_tasks  # noqa: E402

PER_CATEGORY = 2
MOCK = "mockllm/model"


@pytest.fixture(scope="module")
def suite():
    return {k: t for k, t in load_tasks([], include_suite=True).items() if t.split != "hard"}


def call(name: str, args: dict) -> ModelOutput:
    """A scripted tool call. Its usage is given: the mock model would otherwise count tokens with an
    encoding it downloads."""
    output = ModelOutput.for_tool_call(MOCK, name, args)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def gold_calls(task) -> list[ModelOutput]:
    apps = apps_for(getattr(task, "toolset", DEFAULT_TOOLSET))
    return [call(apps[a["app"]].operations[a["action"]].tool_name, a.get("args") or {})
            for a in gold_actions(task.gold, task.answer)]


def run(task_id: str, outputs, tmp_path: Path):
    log = inspect_eval(office(ids=task_id), model=get_model(MOCK, custom_outputs=outputs),
                       log_dir=str(tmp_path / "logs"), display="none")[0]
    assert log.status == "success", log.error
    sample = log.samples[0]
    return next(iter(sample.scores.values())), sample


def test_gold_tool_calls_score_one_in_every_category(suite, tmp_path):
    chosen = [t for c in (1, 2, 3) for t in sorted((t for t in suite.values() if t.category == c),
                                                   key=lambda t: t.id)[:PER_CATEGORY]]
    for task in chosen:
        score, _ = run(task.id, gold_calls(task), tmp_path)
        assert score.value == 1.0, f"{task.id}: {score.explanation}"
        assert score.metadata["passed"] is True and score.metadata["score"] == 1.0
        assert score.metadata["checks"] and score.metadata["side_effects"] == []
        assert score.metadata["collateral"] == [] and score.metadata["missing"] == [] and score.metadata["asking"] == []


def test_a_wrong_solution_scores_zero_and_the_tools_follow_switch_app(suite, tmp_path):
    task = next(t for t in sorted(suite.values(), key=lambda t: t.id) if not t.no_action
                and any(a.action == "switch_app" for a in t.gold))
    target = next(a.args["target_app"] for a in task.gold if a.action == "switch_app")
    offered: list[set[str]] = []
    seen: list[list[str]] = []
    script = iter([call("system_switch_app", {"target_app": target}), call("system_finish_task", {})])

    def model(messages, tools, tool_choice, config):
        offered.append({t.name for t in tools})
        seen.append([m.text for m in messages])
        return next(script)

    score, sample = run(task.id, model, tmp_path)
    assert score.value == 0.0 and score.metadata["passed"] is False
    other = next(app for app in APPS if app not in ("system", target))
    assert any(n.startswith(f"{target}_") for n in offered[1]) and not any(n.startswith(f"{target}_") for n in offered[0])
    assert not any(n.startswith(f"{other}_") for n in offered[1])
    # the first message stays as it was; what the new prompt says anew follows the tool result
    assert seen[1][0] == seen[0][0] and f"'{target}' app" not in seen[0][0]
    assert seen[1][-1].startswith("Update: ") and f"'{target}' app" in seen[1][-1]


def test_inspect_finds_officesim_office_by_name(suite, tmp_path):
    """``inspect eval officesim/office``: in a fresh interpreter the name resolves through the
    ``inspect_ai`` entry point (nothing of officesim imported beforehand) and the task runs."""
    task = suite[sorted(suite)[0]]
    script = [c.model_dump_json() for c in gold_calls(task)]
    code = (
        "import json, sys\n"
        "from inspect_ai import eval\n"
        "from inspect_ai.model import ModelOutput, get_model\n"
        "outputs = [ModelOutput.model_validate_json(s) for s in json.loads(sys.argv[1])]\n"
        "log = eval('officesim/office', task_args={'ids': sys.argv[2]}, log_dir=sys.argv[3], display='none',\n"
        "           model=get_model('mockllm/model', custom_outputs=outputs))[0]\n"
        "print(log.eval.task, log.status, log.results.scores[0].metrics['accuracy'].value)\n"
    )
    runner = tmp_path / "run_office.py"  # a script, as a user runs one (Inspect resolves names differently under -c)
    runner.write_text(code, encoding="utf-8")
    out = subprocess.run([sys.executable, str(runner), json.dumps(script), task.id, str(tmp_path / "logs")],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split()[-3:] == ["officesim/office", "success", "1.0"], out.stdout


def test_a_session_officesim_could_not_grade_is_a_sample_error_not_a_zero():
    """A crash of a check gives no verdict: the scorer raises (Inspect records a sample error it can retry)."""
    import asyncio
    from types import SimpleNamespace

    from officesim.inspect.scorer import office_scorer
    from officesim.inspect.solver import EVALUATION_KEY

    score = office_scorer()
    failed = {"passed": False, "failed": ["checks"], "score": 0.5, "status": "finished", "checks": []}
    assert asyncio.run(score(SimpleNamespace(metadata={EVALUATION_KEY: failed}), None)).value == 0.0
    crashed = {**failed, "failed": ["checks", "error"], "error": "a check of the grader crashed: x crashed: KeyError"}
    with pytest.raises(RuntimeError, match="could not grade this sample: a check of the grader crashed"):
        asyncio.run(score(SimpleNamespace(metadata={EVALUATION_KEY: crashed}), None))
