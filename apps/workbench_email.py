"""WorkBench's email, by id (the ``workbench`` tool set's ``email`` app; apps/workbench_tools.py). Its
operations keep WorkBench's signatures, which differ from OfficeBench's email app (apps/email.py)."""

from officesim.apps.workbench_tools import domain_app

app = domain_app("email")
