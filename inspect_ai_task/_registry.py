"""What Inspect imports through the ``inspect_ai`` entry point: registering ``officesim/office``."""

from officesim.inspect.task import office  # noqa: F401
