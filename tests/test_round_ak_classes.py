"""Classes read since round AJ (issue 44): statements fresh blind rounds were graded wrongly on, each beside its
twin. Pure functions over small texts, tables and records."""

from __future__ import annotations

from officesim.evaluators.actions import action_claims


def test_a_verb_whose_object_is_nothing_claims_no_action():
    assert not action_claims("I've changed nothing in the register.")
    assert not action_claims("We've sent no reminders yet, as none is due.")
    assert not action_claims("I have told no one else.")
    assert [c.stem for c in action_claims("I've changed the register.")] == ["record"]
    # "No. 4" is an item, not a negation
    assert [c.stem for c in action_claims("I've updated No. 4 in the tracker.")] == ["record"]
