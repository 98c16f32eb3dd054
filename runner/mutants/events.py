"""Mutants of calendar events: moved, lengthened, placed elsewhere, created beside the one updated."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from officesim.evaluators.text import collapse
from officesim.runner.mutants.registry import WRONG
from officesim.runner.mutants.base import (BaseDeriver)


class EventMutants(BaseDeriver):
    # -- wrong: events -------------------------------------------------------------------------------
    @staticmethod
    def _all_day(text: Any) -> bool:
        return bool(re.fullmatch(r"\s*\d{4}-\d{2}-\d{2}\s*", str(text)))

    @staticmethod
    def _moment(text: Any) -> datetime | None:
        try:
            return datetime.fromisoformat(str(text).strip())
        except ValueError:
            return None

    @staticmethod
    def _fmt(moment: datetime, like: str) -> str:
        return moment.date().isoformat() if EventMutants._all_day(like) else moment.strftime("%Y-%m-%d %H:%M:%S")

    def events(self) -> None:
        for i, step in enumerate(self.core):
            if step["app"] != "calendar" or step["action"] not in ("create_event", "update_event"):
                continue
            args = step.get("args") or {}
            label = self.label(step, i)
            start, end = self._moment(args.get("time_start")), self._moment(args.get("time_end"))
            if self.event_chosen(args):
                start = end = None  # the gold chose the times: shifting them is another right outcome
            elif self.event_chosen(args, "end"):
                end = None
            shift = timedelta(days=1) if self._all_day(args.get("time_start")) else timedelta(hours=1)
            if start:
                steps = self.steps()
                steps[i]["args"]["time_start"] = self._fmt(start + shift, args["time_start"])
                if end:
                    steps[i]["args"]["time_end"] = self._fmt(end + shift, args["time_end"])
                self.add(WRONG, "event-start-shifted", f"{label} {'a day' if shift.days else 'an hour'} later", steps)
            if end:
                steps = self.steps()
                steps[i]["args"]["time_end"] = self._fmt(end + (shift if shift.days else timedelta(minutes=30)),
                                                         args["time_end"])
                self.add(WRONG, "event-end-shifted", f"{label} ends later", steps)
            if args.get("location"):
                original = self.office.event(args.get("user"), args.get("summary")) if step["action"] == "update_event" else None
                pool = [loc for loc in ([collapse((original or {}).get("location"))] + self.office.locations)
                        if loc and loc.casefold() != collapse(args["location"]).casefold()]
                if pool:
                    steps = self.steps()
                    steps[i]["args"]["location"] = pool[0]
                    self.add(WRONG, "event-location-shifted", f"{label} in {pool[0]!r}", steps)
            if step["action"] == "update_event":
                original = self.office.event(args.get("user"), args.get("summary"))
                if original is None:
                    continue
                new_args = {"user": args.get("user"), "summary": args.get("new_summary") or original.get("summary"),
                            "time_start": args.get("time_start") or original.get("start"),
                            "time_end": args.get("time_end") or original.get("end") or original.get("start")}
                for key, field in (("location", "location"), ("description", "description"), ("attendees", "attendees")):
                    value = args.get(key) if args.get(key) is not None else original.get(field)
                    if value:
                        new_args[key] = value
                steps = self.steps()
                steps[i] = {"app": "calendar", "action": "create_event", "args": new_args}
                self.add(WRONG, "event-beside-update", f"{label} as a new event beside the old one", steps)



class AdversaryEvents(EventMutants):
    def events_unbound(self) -> None:
        """Two events the gold creates with each other's times (pair-unbound): every time is booked, none
        with its event."""
        created = [i for i, s in enumerate(self.core) if (s["app"], s["action"]) == ("calendar", "create_event")
                   and (s.get("args") or {}).get("time_start") and not self.event_chosen(s.get("args") or {})]
        for a, b in zip(created, created[1:]):
            x, y = self.core[a]["args"], self.core[b]["args"]
            if (x.get("time_start"), x.get("time_end")) == (y.get("time_start"), y.get("time_end")) \
                    or collapse(x.get("summary")).casefold() == collapse(y.get("summary")).casefold():
                continue
            steps = self.steps()
            for k in ("time_start", "time_end"):
                steps[a]["args"][k], steps[b]["args"][k] = y.get(k), x.get(k)
            self.add(WRONG, "pair-unbound", f"{self.label(self.core[a], a)} and {self.label(self.core[b], b)} "
                     f"with each other's times", steps)
            return
