"""WorkBench's 27 tools, as WorkBench's src/tools define them, over a ``Store`` of its tables.

The same functions serve the apps (a store of the office's real files: apps/workbench_store.py) and
the replay of a call list on fresh in-memory tables (``MemoryStore``: the importer's gold end state
and WorkBench's own verdict, evaluators/workbench.py), so WorkBench's behaviour exists once. Each
function keeps WorkBench's argument names, defaults, validation order and return values (a message
string, a dict or a list); ``observation`` prints a value as WorkBench's agents see it (``str`` of it).
Values are strings as WorkBench reads its CSVs (``dtype=str``); an empty cell is ``None`` (pandas' NaN).
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from datetime import datetime
from typing import Any, Protocol

NOW = datetime(2023, 11, 30, 0, 0, 0)  # WorkBench's HARDCODED_CURRENT_TIME
USER = "sam@atlas.com"  # the acting user ("Sam" in WorkBench's emails); the mailbox and calendar owner

# table -> (id column, columns in WorkBench's CSV order)
TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "emails": ("email_id", ("email_id", "inbox/outbox", "sender/recipient", "subject", "sent_datetime", "body")),
    "calendar": ("event_id", ("event_id", "event_name", "participant_email", "event_start", "duration")),
    "analytics": ("visitor_id", ("date_of_visit", "visitor_id", "page_views", "session_duration_seconds",
                                 "traffic_source", "user_engaged")),
    "crm": ("customer_id", ("customer_id", "assigned_to_email", "customer_name", "customer_email", "customer_phone",
                            "last_contact_date", "product_interest", "status", "follow_up_by", "notes")),
    "tasks": ("task_id", ("task_id", "task_name", "assigned_to_email", "list_name", "due_date", "board")),
    "plots": ("file_path", ("file_path",)),
    "directory": ("email_address", ("email_address",)),
}
# The tables WorkBench's verdict compares (analytics data never changes; plots are its "analytics" state).
STATE_TABLES = ("calendar", "emails", "plots", "tasks", "crm")
PLOT_VALUES = ["total_visits", "session_duration_seconds", "user_engaged", "visits_direct", "visits_referral",
               "visits_search_engine", "visits_social_media"]
PLOT_TYPES = ["bar", "line", "scatter", "histogram"]
STATUSES = ["Qualified", "Won", "Lost", "Lead", "Proposal"]
PRODUCTS = ["Software", "Hardware", "Services", "Consulting", "Training"]
LISTS = ["Backlog", "In Progress", "In Review", "Completed"]
BOARDS = ["Back end", "Front end", "Design"]
# The calls that change state (WorkBench's tools_with_side_effects).
WRITES = frozenset({
    "calendar.create_event", "calendar.delete_event", "calendar.update_event", "email.send_email",
    "email.delete_email", "email.forward_email", "email.reply_email", "analytics.create_plot",
    "project_management.create_task", "project_management.delete_task", "project_management.update_task",
    "customer_relationship_manager.update_customer", "customer_relationship_manager.add_customer",
    "customer_relationship_manager.delete_customer",
})

Row = dict[str, Any]


class ToolError(Exception):
    """What pandas would raise inside a WorkBench tool (a bad date, a bad pattern): the call fails."""


class Store(Protocol):
    """WorkBench's tables: rows in table order, and the three ways a tool changes them."""

    def rows(self, table: str) -> list[Row]: ...
    def add(self, table: str, row: Row) -> None: ...
    def delete(self, table: str, key: str) -> None: ...
    def update(self, table: str, key: str, field: str, value: Any) -> None: ...


class MemoryStore:
    """Tables in memory (WorkBench's DataFrames), for replaying calls."""

    def __init__(self, tables: dict[str, list[Row]]):
        self.tables = {name: [dict(r) for r in rows] for name, rows in tables.items()}
        self.tables.setdefault("plots", [])

    def rows(self, table: str) -> list[Row]:
        return self.tables[table]

    def add(self, table: str, row: Row) -> None:
        self.tables[table].append({k: v for k, v in row.items() if k in TABLES[table][1]})

    def delete(self, table: str, key: str) -> None:
        id_col = TABLES[table][0]
        self.tables[table] = [r for r in self.tables[table] if r.get(id_col) != key]

    def update(self, table: str, key: str, field: str, value: Any) -> None:
        id_col = TABLES[table][0]
        for r in self.tables[table]:
            if r.get(id_col) == key:
                r[field] = value


# ---- printing -------------------------------------------------------------------------------------
class _NaN(float):
    def __repr__(self) -> str:
        return "nan"


def _shown(row: Row) -> Row:
    """A record as pandas' to_dict gives it: an empty cell is NaN."""
    return {k: (_NaN("nan") if v is None else v) for k, v in row.items()}


class _Array(list):
    """numpy's printing of an array of strings (what find_email_address returns): no commas."""

    def __str__(self) -> str:
        return "[" + " ".join(repr(x) for x in self) + "]"

    __repr__ = __str__


def observation(value: Any) -> str:
    """The text a WorkBench agent reads: ``str`` of the tool's return value."""
    return str(value)


# ---- helpers --------------------------------------------------------------------------------------
def _contains(value: Any, pattern: str) -> bool:
    """pandas' ``str.contains(pattern, case=False)``: a regular expression; an empty cell never matches."""
    if value is None:
        return False
    try:
        return re.search(pattern, str(value), re.IGNORECASE) is not None
    except re.error as exc:
        raise ToolError(f"bad search pattern {pattern!r}: {exc}") from None


def _timestamp(text: Any, what: str) -> datetime:
    """pandas.Timestamp of a date or a date and time."""
    raw = str(text).strip()
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(raw, fmt)
        except ValueError:
            continue
    raise ToolError(f"{what} {text!r} is not a date or time (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)")


def _next_id(rows: list[Row], column: str, width: int = 8) -> str:
    """WorkBench's ``str(int(df[column].max()) + 1)``: the greatest id as text, plus one."""
    ids = [r[column] for r in rows if r.get(column) is not None]
    top = int(max(ids)) if ids else -1
    return str(top + 1).zfill(width) if width else str(top + 1)


def _find(store: Store, table: str, key: Any) -> Row | None:
    id_col = TABLES[table][0]
    return next((r for r in store.rows(table) if r.get(id_col) == key), None)


def _field(row: Row | None, field: str, missing: str) -> Any:
    if row is None:
        return missing
    return {field: _shown(row)[field]} if field in row else "Field not found."


# ---- email ----------------------------------------------------------------------------------------
def email_get_email_information_by_id(store: Store, email_id=None, field=None):
    if not email_id:
        return "Email ID not provided."
    if not field:
        return "Field not provided."
    return _field(_find(store, "emails", email_id), field, "Email not found.")


def email_search_emails(store: Store, query="", date_min=None, date_max=None):
    words = str(query or "").lower().split()
    rows = [r for r in store.rows("emails")
            if all(w in f"{r['subject']} {r['body']} {r['sender/recipient']}".lower() for w in words)]
    rows = sorted(rows, key=lambda r: str(r["sent_datetime"]), reverse=True)
    if date_min:
        low = _timestamp(date_min, "date_min").date()
        rows = [r for r in rows if _timestamp(r["sent_datetime"], "sent_datetime").date() >= low]
    if date_max:
        high = _timestamp(date_max, "date_max").date()
        rows = [r for r in rows if _timestamp(r["sent_datetime"], "sent_datetime").date() <= high]
    return [_shown(r) for r in rows[:5]] if rows else "No emails found."


def email_send_email(store: Store, recipient=None, subject=None, body=None):
    if not recipient or not subject or not body:
        return "Recipient, subject, or body not provided."
    if "@" not in recipient or "." not in recipient:
        return "Invalid recipient email address."
    store.add("emails", {"email_id": _next_id(store.rows("emails"), "email_id", width=0), "inbox/outbox": "outbox",
                         "sender/recipient": recipient.lower(), "subject": subject,
                         "sent_datetime": NOW.strftime("%Y-%m-%d %H:%M:%S"), "body": body})
    return "Email sent successfully."


def email_delete_email(store: Store, email_id=None):
    if not email_id:
        return "Email ID not provided."
    if _find(store, "emails", email_id) is None:
        return "Email not found."
    store.delete("emails", email_id)
    return "Email deleted successfully."


def email_forward_email(store: Store, email_id=None, recipient=None):
    if not email_id or not recipient:
        return "Email ID or recipient not provided."
    email = _find(store, "emails", email_id)
    if email is None:
        return "Email not found."
    if "@" not in recipient or "." not in recipient:
        return "Invalid recipient email address."
    result = email_send_email(store, recipient.lower(), f"FW: {email['subject']}", email["body"])
    return "Email forwarded successfully." if result == "Email sent successfully." else result


def email_reply_email(store: Store, email_id=None, body=None):
    if not email_id or not body:
        return "Email ID or body not provided."
    email = _find(store, "emails", email_id)
    if email is None:
        return "Email not found."
    result = email_send_email(store, email["sender/recipient"], f"{email['subject']}", body)
    return "Email replied successfully." if result == "Email sent successfully." else result


# ---- calendar -------------------------------------------------------------------------------------
def calendar_get_event_information_by_id(store: Store, event_id=None, field=None):
    if not event_id:
        return "Event ID not provided."
    if not field:
        return "Field not provided."
    return _field(_find(store, "calendar", event_id), field, "Event not found.")


def calendar_search_events(store: Store, query="", time_min=None, time_max=None):
    query = "" if query is None else str(query)
    events = [r for r in store.rows("calendar")
              if _contains(r["event_name"], query) or _contains(r["participant_email"], query)]
    if time_min:
        low = _timestamp(time_min, "time_min")
        events = [e for e in events if _timestamp(e["event_start"], "event_start") >= low]
    if time_max:
        high = _timestamp(time_max, "time_max")
        events = [e for e in events if _timestamp(e["event_start"], "event_start") <= high]
    return [_shown(e) for e in events[:5]] if events else "No events found."


def calendar_create_event(store: Store, event_name=None, participant_email=None, event_start=None, duration=None):
    if not event_name:
        return "Event name not provided."
    if not participant_email:
        return "Participant email not provided."
    if not event_start:
        return "Event start not provided."
    if not duration:
        return "Event duration not provided."
    event_id = _next_id(store.rows("calendar"), "event_id")
    store.add("calendar", {"event_id": event_id, "event_name": event_name,
                           "participant_email": participant_email.lower(), "event_start": event_start,
                           "duration": duration})
    return event_id


def calendar_delete_event(store: Store, event_id=None):
    if not event_id:
        return "Event ID not provided."
    if _find(store, "calendar", event_id) is None:
        return "Event not found."
    store.delete("calendar", event_id)
    return "Event deleted successfully."


def calendar_update_event(store: Store, event_id=None, field=None, new_value=None):
    if not event_id or not field or not new_value:
        return "Event ID, field, or new value not provided."
    if _find(store, "calendar", event_id) is None:
        return "Event not found."
    if field == "participant_email":
        new_value = new_value.lower()
    store.update("calendar", event_id, field, new_value)
    return "Event updated successfully."


# ---- analytics ------------------------------------------------------------------------------------
def _visits(store: Store, time_min, time_max) -> list[Row]:
    rows = store.rows("analytics")
    if time_min:
        rows = [r for r in rows if r["date_of_visit"] >= str(time_min)]
    if time_max:
        rows = [r for r in rows if r["date_of_visit"] <= str(time_max)]
    return rows


def _per_day(rows: list[Row], value) -> dict:
    """pandas' groupby("date_of_visit"): days in order, each with ``value(rows of that day)``."""
    days: dict[str, list[Row]] = OrderedDict()
    for r in sorted(rows, key=lambda r: r["date_of_visit"]):
        days.setdefault(r["date_of_visit"], []).append(r)
    return {day: value(group) for day, group in days.items()}


def _engaged(row: Row) -> bool:
    return row["user_engaged"] is True or str(row["user_engaged"]) == "True"


def analytics_get_visitor_information_by_id(store: Store, visitor_id=None):
    if not visitor_id:
        return "Visitor ID not provided."
    found = [dict(_shown(r), user_engaged=_engaged(r)) for r in store.rows("analytics") if r["visitor_id"] == visitor_id]
    return found or "Visitor not found."


def analytics_create_plot(store: Store, time_min=None, time_max=None, value_to_plot=None, plot_type=None):
    if not time_min:
        return "Start date not provided."
    if not time_max:
        return "End date not provided."
    if value_to_plot not in PLOT_VALUES:
        return ("Value to plot must be one of 'total_visits', 'session_duration_seconds', 'user_engaged', 'direct', "
                "'referral', 'search engine', 'social media'")
    if plot_type not in PLOT_TYPES:
        return "Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'"
    file_path = f"plots/{time_min}_{time_max}_{value_to_plot}_{plot_type}.png"
    # the plot's parts ride along for a store that draws it (MemoryStore keeps the file_path column only)
    store.add("plots", {"file_path": file_path, "time_min": time_min, "time_max": time_max,
                        "value_to_plot": value_to_plot, "plot_type": plot_type})
    return file_path


def analytics_total_visits_count(store: Store, time_min=None, time_max=None):
    return _per_day(_visits(store, time_min, time_max), len)


def analytics_engaged_users_count(store: Store, time_min=None, time_max=None):
    return _per_day(_visits(store, time_min, time_max), lambda g: sum(1 for r in g if _engaged(r)))


def analytics_traffic_source_count(store: Store, time_min=None, time_max=None, traffic_source=None):
    rows = _visits(store, time_min, time_max)
    if traffic_source:
        return _per_day(rows, lambda g: sum(1 for r in g if r["traffic_source"] == traffic_source))
    return _per_day(rows, len)


def analytics_get_average_session_duration(store: Store, time_min=None, time_max=None):
    return _per_day(_visits(store, time_min, time_max),
                    lambda g: sum(float(r["session_duration_seconds"]) for r in g) / len(g))


def plot_series(store: Store, time_min: str, time_max: str, value_to_plot: str) -> dict[str, float]:
    """The daily values a plot of ``value_to_plot`` shows (what create_plot draws)."""
    rows = _visits(store, time_min, time_max)
    if value_to_plot == "total_visits":
        return _per_day(rows, len)
    if value_to_plot == "session_duration_seconds":
        return analytics_get_average_session_duration(store, time_min, time_max)
    if value_to_plot == "user_engaged":
        return analytics_engaged_users_count(store, time_min, time_max)
    source = value_to_plot.removeprefix("visits_").replace("_", " ")
    return analytics_traffic_source_count(store, time_min, time_max, source)


# ---- customer relationship manager ----------------------------------------------------------------
def customer_relationship_manager_search_customers(
    store: Store, customer_name=None, customer_email=None, product_interest=None, status=None,
    assigned_to_email=None, last_contact_date_min=None, last_contact_date_max=None, follow_up_by_min=None,
    follow_up_by_max=None,
):
    given = [customer_name, customer_email, product_interest, status, assigned_to_email, last_contact_date_min,
             last_contact_date_max, follow_up_by_min, follow_up_by_max]
    if not any(given):
        return "No search parameters provided. Please provide at least one parameter."
    rows = list(store.rows("crm"))
    for column, value in (("customer_name", customer_name), ("customer_email", customer_email),
                          ("product_interest", product_interest), ("status", status),
                          ("assigned_to_email", assigned_to_email)):
        if value:
            rows = [r for r in rows if _contains(r[column], value)]
    for column, value, low in (("last_contact_date", last_contact_date_min, True),
                               ("last_contact_date", last_contact_date_max, False),
                               ("follow_up_by", follow_up_by_min, True), ("follow_up_by", follow_up_by_max, False)):
        if value:
            rows = [r for r in rows if r[column] is not None and (r[column] >= value if low else r[column] <= value)]
    return [_shown(r) for r in rows][:5]


def customer_relationship_manager_update_customer(store: Store, customer_id=None, field=None, new_value=None):
    if not customer_id or not field or not new_value:
        return "Customer ID, field, or new value not provided."
    if field == "status" and new_value not in STATUSES:
        return "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'"
    if field == "product_interest" and new_value not in PRODUCTS:
        return ("Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', "
                "'Training'")
    if field in ("customer_email", "assigned_to_email"):
        new_value = new_value.lower()
    if _find(store, "crm", customer_id) is None:
        return "Customer not found."
    if field not in TABLES["crm"][1]:
        return ("Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', "
                "'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'")
    store.update("crm", customer_id, field, new_value)
    return "Customer updated successfully."


def customer_relationship_manager_add_customer(
    store: Store, customer_name=None, assigned_to_email=None, status=None, customer_email=None, customer_phone=None,
    last_contact_date=None, product_interest=None, notes="", follow_up_by=None,
):
    if not all([customer_name, assigned_to_email, status]):
        return "Please provide all required fields: customer_name, assigned_to_email, status."
    new_id = _next_id(store.rows("crm"), "customer_id")
    store.add("crm", {"customer_id": new_id, "assigned_to_email": assigned_to_email.lower(),
                      "customer_name": customer_name,
                      "customer_email": customer_email.lower() if customer_email else customer_email,
                      "customer_phone": customer_phone, "last_contact_date": last_contact_date,
                      "product_interest": product_interest, "status": status, "follow_up_by": follow_up_by,
                      "notes": notes})
    return new_id


def customer_relationship_manager_delete_customer(store: Store, customer_id=None):
    if not customer_id:
        return "Customer ID not provided."
    if _find(store, "crm", customer_id) is None:
        return "Customer not found."
    store.delete("crm", customer_id)
    return "Customer deleted successfully."


# ---- project management ---------------------------------------------------------------------------
def project_management_get_task_information_by_id(store: Store, task_id=None, field=None):
    if not task_id:
        return "Task ID not provided."
    if not field:
        return "Field not provided."
    return _field(_find(store, "tasks", task_id), field, "Task not found.")


def project_management_search_tasks(store: Store, task_name=None, assigned_to_email=None, list_name=None,
                                    due_date=None, board=None):
    if not any([task_name, assigned_to_email, list_name, due_date, board]):
        return "No search parameters provided."
    rows = list(store.rows("tasks"))
    for column, value in (("task_name", task_name), ("assigned_to_email", assigned_to_email),
                          ("list_name", list_name), ("due_date", due_date), ("board", board)):
        if value:
            rows = [r for r in rows if _contains(r[column], value)]
    return [_shown(r) for r in rows]


def _assignees(store: Store) -> set[str]:
    return {str(r["assigned_to_email"]).lower() for r in store.rows("tasks") if r["assigned_to_email"] is not None}


def project_management_create_task(store: Store, task_name=None, assigned_to_email=None, list_name=None,
                                   due_date=None, board=None):
    if not all([task_name, assigned_to_email, list_name, due_date, board]):
        return "Missing task details."
    assigned_to_email = assigned_to_email.lower()
    if assigned_to_email not in _assignees(store):
        return "Assignee email not valid. Please choose from the list of team members."
    if list_name not in LISTS:
        return "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'."
    if board not in BOARDS:
        return "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'."
    task_id = _next_id(store.rows("tasks"), "task_id")
    store.add("tasks", {"task_id": task_id, "task_name": task_name, "assigned_to_email": assigned_to_email,
                        "list_name": list_name, "due_date": due_date, "board": board})
    return task_id


def project_management_delete_task(store: Store, task_id=None):
    if not task_id:
        return "Task ID not provided."
    if _find(store, "tasks", task_id) is None:
        return "Task not found."
    store.delete("tasks", task_id)
    return "Task deleted successfully."


def project_management_update_task(store: Store, task_id=None, field=None, new_value=None):
    if not task_id or not field or not new_value:
        return "Task ID, field, or new value not provided."
    if field == "assigned_to_email":
        new_value = new_value.lower()
    if field == "board" and new_value not in BOARDS:
        return "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'."
    if field == "list_name" and new_value not in LISTS:
        return "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'."
    if field == "assigned_to_email" and new_value not in _assignees(store):
        return "Assignee email not valid. Please choose from the list of team members."
    if _find(store, "tasks", task_id) is None:
        return "Task not found."
    if field not in TABLES["tasks"][1]:
        return "Field not valid."
    store.update("tasks", task_id, field, new_value)
    return "Task updated successfully."


# ---- company directory ----------------------------------------------------------------------------
def company_directory_find_email_address(store: Store, name=""):
    if name == "" or name is None:
        return "Name not provided."
    needle = str(name).lower()
    return _Array(r["email_address"] for r in store.rows("directory") if _contains_cs(r["email_address"], needle))


def _contains_cs(value: Any, pattern: str) -> bool:
    """pandas' case-sensitive ``str.contains`` (a regular expression)."""
    try:
        return value is not None and re.search(pattern, str(value)) is not None
    except re.error as exc:
        raise ToolError(f"bad search pattern {pattern!r}: {exc}") from None


DOMAINS = ("email", "calendar", "analytics", "customer_relationship_manager", "project_management",
           "company_directory")
# "domain.tool" -> the function (WorkBench's tool names), found by the domain_tool naming above
TOOLS: dict[str, Any] = {
    f"{domain}.{name[len(domain) + 1:]}": func
    for name, func in list(globals().items())
    for domain in DOMAINS
    if callable(func) and name.startswith(domain + "_") and not name.startswith(domain + "_relationship")
}


def call(store: Store, tool: str, args: dict) -> Any:
    """Run WorkBench's ``tool`` (``domain.name``) with keyword ``args`` on ``store``."""
    return TOOLS[tool](store, **args)


def nan_safe(value: Any) -> Any:
    """None for an empty cell given as NaN."""
    return None if isinstance(value, float) and math.isnan(value) else value


__all__ = ["NOW", "USER", "TABLES", "STATE_TABLES", "WRITES", "TOOLS", "DOMAINS", "MemoryStore", "Store",
           "ToolError", "call", "observation", "plot_series"]
