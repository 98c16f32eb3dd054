"""The period a piece of work is of (evaluators/periods.py)."""

from officesim.evaluators.periods import period_problems

TASK = ["Hi Hugo, October's supplier payments are reconciled with the bank statement.",
        "Q4 2026 reforecast — cost centres forecast above budget"]


def test_another_period_given_to_the_tasks_work_is_false():
    assert period_problems("September's supplier payments are reconciled, except two.", TASK)
    assert period_problems("Q3 2026 reforecast — cost centres forecast above budget", TASK)


def test_the_tasks_period_and_a_comparison_are_not_read():
    assert period_problems("October's supplier payments are reconciled.", TASK) == []
    assert period_problems("Fewer than September supplier payments bounced.", TASK) == []
    assert period_problems("The Q4 reforecast is attached.", TASK) == []
    assert period_problems("September's invoices were all paid.", TASK) == []  # a thing the task gives no period
    assert period_problems("Spend is up on September's supplier payments.", TASK) == []
