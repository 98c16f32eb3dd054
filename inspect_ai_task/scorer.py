"""The scorer: officesim's own evaluation of the session, as an Inspect score."""

from __future__ import annotations

from inspect_ai.scorer import Score, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from officesim.inspect.solver import EVALUATION_KEY, SESSION_KEY


def _explanation(evaluation: dict) -> str:
    lines = [f"{'passed' if evaluation.get('passed') else 'failed'}: score {evaluation.get('score')}, "
             f"status {evaluation.get('status')}"]
    lines += [f"check {'ok' if c.get('passed') else 'FAILED'}: {c.get('check')} {c.get('message') or ''}"
              for c in evaluation.get("checks") or []]
    lines += [f"side effect: {s}" for s in evaluation.get("side_effects") or []]
    lines += [f"asking: {s}" for s in evaluation.get("asking") or []]
    return "\n".join(lines)


@scorer(metrics=[accuracy(), stderr()])
def office_scorer():
    """1.0 when officesim's verdict is ``passed`` (every check, no side effect), else 0.0; the
    evaluation (score as the fraction of checks, side effects, checks) goes in the metadata. A session
    officesim could not grade raises: a sample error, not a score."""

    async def score(state: TaskState, target: Target) -> Score:
        evaluation = (state.metadata or {}).get(EVALUATION_KEY)
        if evaluation and "error" in (evaluation.get("failed") or []):
            # officesim could not grade the session (a check crashed, grading timed out): a sample error
            # Inspect reports apart and can retry (--retry-on-error), never a 0 the agent earned
            raise RuntimeError(f"officesim could not grade this sample: {evaluation.get('error')}")
        if not evaluation:
            return Score(value=0.0, explanation="the session produced no evaluation",
                         metadata={"session_id": (state.metadata or {}).get(SESSION_KEY)})
        return Score(value=1.0 if evaluation.get("passed") else 0.0, answer=evaluation.get("answer"),
                     explanation=_explanation(evaluation),
                     metadata={"passed": evaluation.get("passed"), "score": evaluation.get("score"),
                               "status": evaluation.get("status"), "failed": evaluation.get("failed"),
                               "side_effects": evaluation.get("side_effects"), "collateral": evaluation.get("collateral"),
                               "missing": evaluation.get("missing"), "asking": evaluation.get("asking"),
                               "checks": evaluation.get("checks"),
                               "session_id": (state.metadata or {}).get(SESSION_KEY)})

    return score


