"""Mutants of mail: recipients replaced, joined, dropped or put in cc, attachments extra or stale; a body
reworded, a subject changed, a greeting and sign-off added, oneself in cc, the task's source attached."""

from __future__ import annotations

import difflib
import posixpath
import re
from typing import Any

from officesim.runner.mutants.registry import RIGHT, WRONG
from officesim.runner.mutants.base import (BaseDeriver, _BODY_ARGS, _FILE_ARGS, effects, _first_name, _listed, office_path,
                                           _order_fixed, reword)


class MailMutants(BaseDeriver):
    # -- wrong: recipients ---------------------------------------------------------------------------
    def recipients(self) -> None:
        for i, step in enumerate(self.core):
            app, action, args = step["app"], step["action"], step.get("args") or {}
            label = self.label(step, i)
            if app == "email" and action in ("send_email", "forward_email", "reply_email"):
                if action == "reply_email":
                    original = self._message(args.get("username"), args.get("email_id"))
                    if not original or not original.get("from"):
                        continue
                    to = [original["from"]]
                    cc: list[str] = []
                else:
                    to = [str(a).lower() for a in _listed(args.get("recipient"))]
                    cc = [str(a).lower() for a in _listed(args.get("cc"))]
                sender = str(args.get("sender") or args.get("username") or self.task.user).lower()
                other = self.office.other_address([*to, *cc, sender], like=to[0] if to else "")
                if other:
                    for cls, new_to in (("recipient-replaced", [other, *to[1:]]), ("recipient-joined", [*to, other])):
                        steps = self.steps()
                        if action == "reply_email":
                            steps[i] = self._reply_as_send(step, original, new_to)
                        else:
                            steps[i]["args"]["recipient"] = new_to if len(new_to) > 1 else new_to[0]
                        what = f"{to[0]} -> {other}" if cls == "recipient-replaced" else f"+ {other}"
                        self.add(WRONG, cls, f"{label} recipient {what}", steps)
                if action == "send_email" and len(to) + len(cc) > 1:
                    steps = self.steps()
                    if len(to) > 1:
                        dropped, steps[i]["args"]["recipient"] = to[-1], to[:-1] if len(to) > 2 else to[0]
                    else:
                        dropped, steps[i]["args"]["cc"] = cc[-1], cc[:-1]
                    self.add(WRONG, "recipient-dropped", f"{label} without {dropped}", steps)
                # the one addressee made a copy-reader, the mail addressed to someone else: wrong. One of
                # several addressees moved to cc still gets the mail beside the others ("send it to Bob and
                # Tom"), which no reader tells from the gold's: not derived
                if action == "send_email" and len(to) == 1 and cc:
                    moved = to[0]
                    if self.office.mentions(moved) or moved in self.instruction.lower() \
                            or _first_name(moved) in self.instruction.lower():
                        steps = self.steps()
                        steps[i]["args"]["recipient"] = cc[0]
                        steps[i]["args"]["cc"] = [moved, *cc[1:]]
                        self.add(WRONG, "cc-instead-of-to", f"{label} {moved} in cc instead of to", steps)
            if app == "calendar" and action in ("create_event", "update_event") and args.get("attendees"):
                attendees = [str(a).lower() for a in args["attendees"]]
                owner = str(args.get("user") or self.task.user).lower()  # the calendar's owner is no new attendee
                other = self.office.other_address([*attendees, self.task.user, owner], like=attendees[0])
                replace_at = next((k for k, a in enumerate(attendees) if a != str(self.task.user).lower()), 0)
                changes = [("recipient-joined", [*attendees, other], f"+ {other}")] if other else []
                if other:
                    changes.append(("recipient-replaced", [other if k == replace_at else a for k, a in enumerate(attendees)],
                                    f"{attendees[replace_at]} -> {other}"))
                if len(attendees) > 1:
                    changes.append(("recipient-dropped", [a for k, a in enumerate(attendees) if k != replace_at],
                                    f"without {attendees[replace_at]}"))
                for cls, new, what in changes:
                    steps = self.steps()
                    steps[i]["args"]["attendees"] = new
                    self.add(WRONG, cls, f"{label} attendee {what}", steps)

    def _message(self, user: Any, email_id: Any) -> dict | None:
        user = str(user or "").lower()
        for folder in ("", "sent/"):
            entry = self.office.files.get(f"emails/{user}/{folder}{email_id}.eml")
            if entry:
                return entry
        return None

    def _reply_as_send(self, step: dict, original: dict, to: list[str]) -> dict:
        subject = str(original.get("subject") or "")
        args = step.get("args") or {}
        return {"app": "email", "action": "send_email",
                "args": {"sender": args.get("username"), "recipient": to if len(to) > 1 else to[0],
                         "subject": subject if subject.lower().startswith("re:") else f"Re: {subject}",
                         "content": args.get("content", "")}}

    # -- wrong: attachments --------------------------------------------------------------------------
    def attachments(self) -> None:
        for i, step in enumerate(self.core):
            if (step["app"], step["action"]) != ("email", "send_email"):
                continue
            args = step.get("args") or {}
            attached = [office_path(a) for a in _listed(args.get("attachments"))]
            like = attached[0] if attached else ""
            # a file the solution never touches: attaching the file a text was taken from is defensible
            pool = [p for p in self.office.data_files() if p not in attached and p not in self.touched]
            if like:
                same = [p for p in pool if p.rsplit(".", 1)[-1] == like.rsplit(".", 1)[-1]]
                pool = same or pool
            if pool:
                extra = max(pool, key=lambda p: (difflib.SequenceMatcher(None, p, like).ratio(), p)) if like else pool[0]
                steps = self.steps()
                steps[i]["args"]["attachments"] = [*_listed(args.get("attachments")), extra]
                self.add(WRONG, "extra-attachment", f"{self.label(step, i)} + {extra}", steps)
            for path in attached:
                if path not in self.office.files:
                    continue
                first = next((j for j in range(i) if not self.is_read(self.core[j])
                              and path in {w.split("#")[0] for w in effects(self.core[j], j, self.toolset)[1]}), None)
                if first is None:
                    continue
                steps = self.steps()
                send = steps.pop(i)
                steps.insert(first, send)
                self.add(WRONG, "stale-attachment", f"{self.label(step, i)} sent before the edits to {path}", steps)


    # -- right: mail wording -------------------------------------------------------------------------
    def mail_right(self) -> None:
        for i, step in enumerate(self.core):
            key = _BODY_ARGS.get((step["app"], step["action"]))
            if not key:
                continue
            args = step.get("args") or {}
            body = str(args.get(key) or "")
            if body.strip() and not self._fixed(body):
                new = reword(body, self.instruction, ordered=_order_fixed(self.instruction))
                if new != body:
                    steps = self.steps()
                    steps[i]["args"][key] = new
                    self.add(RIGHT, "body-reworded", f"{self.label(step, i)} body reworded", steps)
            subject = args.get("subject")
            if step["action"] == "send_email" and isinstance(subject, str) and subject.strip() \
                    and not self._fixed(subject) and not re.search(r"\bsubject\b", self.instruction, re.I):
                steps = self.steps()
                steps[i]["args"]["subject"] = f"FYI: {subject.strip()}"
                self.add(RIGHT, "subject-changed", f"{self.label(step, i)} subject 'FYI: {subject.strip()}'", steps)



class MailAsPeopleWrite(BaseDeriver):
    """Right mutants of a mail as a reasonable user writes and sends it (docs/grading.md, Mail as a reasonable
    user reads it): a greeting and sign-off around the gold's words, oneself in cc, the task's source file
    attached as it stands."""

    def mail_as_people_write(self) -> None:
        for i, step in enumerate(self.core):
            key = _BODY_ARGS.get((step["app"], step["action"]))
            if not key:
                continue
            args = step.get("args") or {}
            body = str(args.get(key) or "")
            label = self.label(step, i)
            if body.strip() and not self._fixed(body):
                steps = self.steps()
                name = re.split(r"[._-]", str(self.task.user).split("@")[0])[0].title()
                steps[i]["args"][key] = f"Hello,\n\n{body.strip()}\n\nKind regards,\n{name}\n\n\n"
                self.add(RIGHT, "greeting-signoff", f"{label} with a greeting, a sign-off and blank lines", steps)
            if step["action"] != "send_email":
                continue
            user = str(self.task.user).lower()
            sender = str(args.get("sender") or user).lower()
            cc = [str(a).lower() for a in _listed(args.get("cc"))]
            to = [str(a).lower() for a in _listed(args.get("recipient"))]
            if sender == user and user not in cc and user not in to:
                steps = self.steps()
                steps[i]["args"]["cc"] = [*_listed(args.get("cc")), self.task.user]
                self.add(RIGHT, "cc-self", f"{label} cc {self.task.user}", steps)
            attached = {office_path(a) for a in _listed(args.get("attachments"))}
            written_later_or_before = {w.split("#")[0] for j, s in enumerate(self.core) if not self.is_read(s)
                                       for w in effects(s, j, self.toolset)[1]}
            source = next((office_path(s["args"].get(k)) for s in self.core[:i] if self.is_read(s) and s["app"] != "shell"
                           for k in _FILE_ARGS if (s.get("args") or {}).get(k)
                           and office_path(s["args"].get(k)) in self.office.data_files()
                           and office_path(s["args"].get(k)) not in attached
                           and office_path(s["args"].get(k)) not in written_later_or_before), None)
            # where the instruction names the file to send ("email hw1.docx to Carol"), another file
            # beside it (the class list) is not asked for: not derived
            named = any(posixpath.basename(a).lower() in self.instruction.lower() for a in attached)
            if source and not named:
                steps = self.steps()
                steps[i]["args"]["attachments"] = [*_listed(args.get("attachments")), source]
                self.add(RIGHT, "source-attached", f"{label} + {source} (read by the task, unchanged)", steps)
