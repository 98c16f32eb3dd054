"""WorkBench's calendar, by id (the ``workbench`` tool set's ``calendar`` app; apps/workbench_tools.py). Its
operations keep WorkBench's signatures, which differ from OfficeBench's calendar app (apps/calendar.py)."""

from officesim.apps.workbench_tools import domain_app

app = domain_app("calendar")
