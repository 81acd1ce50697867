"""The environment's wire types, where its users import them: `CanvasAction` (the reply),
`CanvasObservation` (the prompt, or a scored render), `CanvasState` (the episode). They are
defined in `watercolor.render.wire`, beside the typed client `RemoteRenderer` paints through;
the old `Paint*` names answer here, deprecated (`watercolor.env.RENAMED`).
"""

from watercolor.env import renamed_names
from watercolor.render.wire import CanvasAction, CanvasObservation, CanvasState

__all__ = ["CanvasAction", "CanvasObservation", "CanvasState"]

__getattr__ = renamed_names(globals(), __name__)  # the old Paint* names, deprecated
