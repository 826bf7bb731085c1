"""The combat screen's widgets, one a file."""

from .log import LogView
from .plan import PlanView
from .status import StatusLine
from .tracker import Tracker

__all__ = ["LogView", "PlanView", "StatusLine", "Tracker"]
