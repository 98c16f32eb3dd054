"""WorkBench's analytics (the ``workbench`` tool set; apps/workbench_tools.py)."""

from officesim.apps.workbench_tools import domain_app

app = domain_app("analytics")
