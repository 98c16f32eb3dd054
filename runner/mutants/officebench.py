"""The deriver of OfficeBench's tool set: every part (files and cells, mail, events, written text,
asking) on one ``Deriver``, run in a fixed order (an outcome derived twice is kept under the first
class that derived it)."""

from __future__ import annotations

from typing import Any, Iterable

from officesim.runner.mutants.asking import QuestionsReworded
from officesim.runner.mutants.base import Mutant
from officesim.runner.mutants.events import AdversaryEvents
from officesim.runner.mutants.files import AdversaryFiles
from officesim.runner.mutants.mail import MailAsPeopleWrite, MailMutants
from officesim.runner.mutants.records import RecordMutants
from officesim.runner.mutants.text import AdversaryWritten, TextMutants


class Deriver(QuestionsReworded, AdversaryFiles, MailMutants, MailAsPeopleWrite, AdversaryEvents, TextMutants,
              AdversaryWritten, RecordMutants):
    """Derives the mutants of one task (``derive`` is the entry point)."""

    def derive(self) -> list[Mutant]:
        for part in (self.guessed_not_asked, self.dropped_and_doubled, self.numbers_wrong, self.cells_off, self.distractor_files,
                     self.recipients, self.attachments, self.moves, self.distractor_deletes, self.events, self.answers_wrong,
                     self.numbers_right, self.dates_right, self.mail_right, self.formulas, self.answer_right,
                     self.reorder, self.reads_and_switches, self.text_wrong, self.text_right, self.numbers_as_text,
                     self.mail_as_people_write, self.events_unbound, self.adversary_files, self.adversary_text,
                     self.questions_reworded, self.records_wrong, self.forwards_wrong):
            part()
        return self.out


def derive(task: Any, office: dict[str, dict], gold: Iterable[Any] | None = None, answer: Any = ...) -> list[Mutant]:
    """Every mutant of a task of OfficeBench's tool set: ``task`` (tasks.model.Task), its parsed initial
    office, and optionally another gold (actions, answer) than the task's own."""
    return Deriver(task, office, gold, answer).derive()
