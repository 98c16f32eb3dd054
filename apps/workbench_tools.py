"""WorkBench's tools as officesim operations: one ``App`` per WorkBench domain (the ``workbench`` tool set).

Every operation is WorkBench's tool of the same name (apps/workbench_core.py) run on the office's
files (apps/workbench_store.py): the same arguments, all optional as in WorkBench, and the same
observation (``str`` of what the tool returns: a message, a dict or a list). The descriptions are
WorkBench's docstrings. A number given where WorkBench expects text (``duration=30``) is read as
that text. What WorkBench itself would crash on (a malformed date, a bad search pattern, a value an
.ics calendar cannot hold) is a ``bad_arguments``/``bad_date`` error here.
"""

from __future__ import annotations

import inspect
import math
from typing import Annotated, Any, Callable

from pydantic import BeforeValidator

from officesim.apps.registry import App, OfficeContext, OpError, Result
from officesim.apps.workbench_core import TOOLS, WRITES, ToolError, observation
from officesim.apps.workbench_store import OfficeStore

TOOLSET = "workbench"
# WorkBench's arguments are text; a number given for one (duration=30) is read as that text.
Text = Annotated[str | None, BeforeValidator(lambda v: str(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v)]

# "domain.tool" -> (WorkBench's description, {argument: its help})
DOCS: dict[str, tuple[str, dict[str, str]]] = {
    "email.get_email_information_by_id": ("Retrieves specific details of an email by its ID.", {
        "email_id": "Unique ID of the email.",
        "field": 'Specific field to return. Available fields: "email_id", "inbox/outbox", "sender/recipient", '
                 '"subject", "sent_datetime", "body".'}),
    "email.search_emails": ("Searches for emails matching the given query across subject, body, or sender fields. "
                            "The function matches an email if all words in the query appear in any of these fields. "
                            "Returns at most 5 emails, newest first.", {
        "query": "Search query, matching terms in subject, body, or sender fields.",
        "date_min": "Lower date limit for the email's sent date (inclusive). Format: \"YYYY-MM-DD\"",
        "date_max": "Upper date limit for the email's sent date (inclusive). Format: \"YYYY-MM-DD\""}),
    "email.send_email": ("Sends an email to the specified recipient.", {
        "recipient": "Email address of the recipient.", "subject": "Subject line of the email.",
        "body": "Body content of the email."}),
    "email.delete_email": ("Deletes an email by its ID.", {"email_id": "Unique ID of the email to be deleted."}),
    "email.forward_email": ("Forwards an email to the specified recipient.", {
        "email_id": "Unique ID of the email to be forwarded.", "recipient": "Email address of the recipient."}),
    "email.reply_email": ("Replies to an email by its ID.", {
        "email_id": "Unique ID of the email to be replied.", "body": "Body content of the email."}),
    "calendar.get_event_information_by_id": ("Returns the event for a given ID.", {
        "event_id": "8-digit ID of the event.",
        "field": 'Field to return. Available fields are: "event_id", "event_name", "participant_email", '
                 '"event_start", "duration"'}),
    "calendar.search_events": ("Returns the events for a given query. Returns at most 5 events.", {
        "query": "Query to search for. Terms will be matched in the event_name and participant_email fields.",
        "time_min": "Lower bound (inclusive) for an event's start time to filter by. Format: \"YYYY-MM-DD HH:MM:SS\"",
        "time_max": "Upper bound (inclusive) for an event's start time to filter by. Format: \"YYYY-MM-DD HH:MM:SS\""}),
    "calendar.create_event": ("Creates a new event. Returns the ID of the newly created event.", {
        "event_name": "Name of the event.", "participant_email": "Email of the participant.",
        "event_start": 'Start time of the event. Format: "YYYY-MM-DD HH:MM:SS"',
        "duration": "Duration of the event in minutes."}),
    "calendar.delete_event": ("Deletes an event.", {"event_id": "8-digit ID of the event."}),
    "calendar.update_event": ("Updates an event.", {
        "event_id": "8-digit ID of the event.", "field": "Field to update.", "new_value": "New value for the field."}),
    "analytics.get_visitor_information_by_id": ("Returns the analytics data for a given visitor ID.", {
        "visitor_id": "ID of the visitor."}),
    "analytics.create_plot": ("Plots the analytics data for a given time range and value. Returns the path to the "
                              "plot file: plots/{time_min}_{time_max}_{value_to_plot}_{plot_type}.png.", {
        "time_min": 'Start date of the time range. Date format is "YYYY-MM-DD".',
        "time_max": 'End date of the time range. Date format is "YYYY-MM-DD".',
        "value_to_plot": 'Value to plot. Available values are: "total_visits", "session_duration_seconds", '
                         '"user_engaged", "visits_direct", "visits_referral", "visits_search_engine", '
                         '"visits_social_media"',
        "plot_type": 'Type of plot. Can be "bar", "line", "scatter" or "histogram"'}),
    "analytics.total_visits_count": ("Returns the total number of visits within a specified time range.", {
        "time_min": 'Start date of the time range. Date format is "YYYY-MM-DD".',
        "time_max": 'End date of the time range. Date format is "YYYY-MM-DD".'}),
    "analytics.engaged_users_count": ("Returns the number of engaged users within a specified time range.", {
        "time_min": 'Start date of the time range. Date format is "YYYY-MM-DD".',
        "time_max": 'End date of the time range. Date format is "YYYY-MM-DD".'}),
    "analytics.traffic_source_count": ("Returns the number of visits from a specific traffic source within a "
                                       "specified time range.", {
        "time_min": 'Start date of the time range. Date format is "YYYY-MM-DD".',
        "time_max": 'End date of the time range. Date format is "YYYY-MM-DD".',
        "traffic_source": 'Traffic source to filter the visits. Available values are: "direct", "referral", '
                          '"search engine", "social media"'}),
    "analytics.get_average_session_duration": ("Returns the average session duration within a specified time "
                                               "range.", {
        "time_min": 'Start date of the time range. Date format is "YYYY-MM-DD".',
        "time_max": 'End date of the time range. Date format is "YYYY-MM-DD".'}),
    "customer_relationship_manager.search_customers": ("Searches for customers based on the given parameters. "
                                                       "Returns at most 5 records.", {
        "customer_name": "Name of the customer.", "customer_email": "Email address of the customer.",
        "product_interest": "Product interest of the customer.", "status": "Current status of the customer.",
        "assigned_to_email": "Email address of the person assigned to the customer.",
        "last_contact_date_min": 'Minimum last contact date. Format: "YYYY-MM-DD"',
        "last_contact_date_max": 'Maximum last contact date. Format: "YYYY-MM-DD"',
        "follow_up_by_min": 'Minimum follow up date. Format: "YYYY-MM-DD"',
        "follow_up_by_max": 'Maximum follow up date. Format: "YYYY-MM-DD"'}),
    "customer_relationship_manager.update_customer": ("Updates a customer record by ID.", {
        "customer_id": "ID of the customer.",
        "field": 'Field to update. Available fields are: "customer_name", "assigned_to_email", "customer_email", '
                 '"customer_phone", "last_contact_date", "product_interest", "status", "notes", "follow_up_by"',
        "new_value": "New value for the field."}),
    "customer_relationship_manager.add_customer": ("Adds a new customer record. Returns the ID of the new "
                                                   "customer.", {
        "customer_name": "Name of the customer.",
        "assigned_to_email": "Email address of the person assigned to the customer.",
        "status": 'Current status of the customer. One of: "Qualified", "Won", "Lost", "Lead", "Proposal"',
        "customer_email": "Email address of the customer.", "customer_phone": "Phone number of the customer.",
        "last_contact_date": 'The last date the customer was contacted. Format: "YYYY-MM-DD"',
        "product_interest": 'Product interest of the customer. One of: "Software", "Hardware", "Services", '
                            '"Consulting", "Training"',
        "notes": "Notes about the customer.", "follow_up_by": 'Date for the next follow up. Format: "YYYY-MM-DD"'}),
    "customer_relationship_manager.delete_customer": ("Deletes a customer record by ID.", {
        "customer_id": "ID of the customer."}),
    "project_management.get_task_information_by_id": ("Returns the task information for a given ID.", {
        "task_id": "8-digit ID of the task.",
        "field": 'Field to return. Available fields are: "task_id", "task_name", "assigned_to_email", "list_name", '
                 '"due_date", "board"'}),
    "project_management.search_tasks": ("Searches for tasks based on the given parameters.", {
        "task_name": "Name of the task.", "assigned_to_email": "Email address of the person assigned to the task.",
        "list_name": "Name of the list the task belongs to.", "due_date": 'Due date of the task in "YYYY-MM-DD" format.',
        "board": "Name of the board the task belongs to."}),
    "project_management.create_task": ("Creates a new task. Returns the 8-digit ID of the new task.", {
        "task_name": "Name of the task.", "assigned_to_email": "Email address of the person assigned to the task.",
        "list_name": "Name of the list the task belongs to.", "due_date": 'Due date of the task in "YYYY-MM-DD" format.',
        "board": "Name of the board the task belongs to."}),
    "project_management.delete_task": ("Deletes a task by ID.", {"task_id": "8-digit ID of the task."}),
    "project_management.update_task": ("Updates a task by ID.", {
        "task_id": "8-digit ID of the task.",
        "field": 'Field to update. Available fields are: "task_name", "assigned_to_email", "list_name", "due_date", '
                 '"board"',
        "new_value": "New value for the field."}),
    "company_directory.find_email_address": ("Finds the email address of an employee by their name.", {
        "name": "Name of the person."}),
}
assert set(DOCS) == set(TOOLS), sorted(set(DOCS) ^ set(TOOLS))

DESCRIPTIONS = {
    "email": "WorkBench's email: search, read, send, forward, reply to and delete the user's emails by id.",
    "calendar": "WorkBench's calendar: search, create, update and delete the user's events by id.",
    "analytics": "WorkBench's website analytics: visit counts and averages per day, visitor lookup, plots.",
    "customer_relationship_manager": "WorkBench's CRM: search, add, update and delete customer records.",
    "project_management": "WorkBench's project board: search, create, update and delete tasks.",
    "company_directory": "WorkBench's company directory: find a colleague's email address by name.",
}


def _plain(value: Any) -> Any:
    """The tool's value as JSON data (NaN as null, arrays as lists)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _operation(tool: str) -> Callable[..., Result]:
    """An operation with the tool's own argument names and defaults (WorkBench's are all optional)."""
    func = TOOLS[tool]
    description, helps = DOCS[tool]
    params = list(inspect.signature(func).parameters.values())[1:]

    def run(ctx: OfficeContext, **kwargs: Any) -> Result:
        try:
            value = func(OfficeStore(ctx), **kwargs)
        except ToolError as exc:
            raise OpError("bad_arguments", f"{tool}: {exc}") from None
        return Result(observation=observation(value), data=_plain(value))

    run.__name__ = tool.split(".", 1)[1]
    run.__qualname__ = run.__name__
    run.__doc__ = description + "\n\nArgs:\n" + "".join(f"    {p.name}: {helps.get(p.name, '')}\n" for p in params)
    ctx_param = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=OfficeContext)
    run.__signature__ = inspect.Signature(
        [ctx_param] + [inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=p.default,
                                         annotation=Text) for p in params])
    run.__annotations__ = {"ctx": OfficeContext, **{p.name: Text for p in params}, "return": Result}
    return run


def domain_app(domain: str) -> App:
    """The ``App`` of one WorkBench domain, its operations in WorkBench's order."""
    app = App(domain, DESCRIPTIONS[domain], toolset=TOOLSET)
    for tool in TOOLS:
        if tool.split(".", 1)[0] == domain:
            app.operation(_operation(tool), writes=tool in WRITES)
    return app
