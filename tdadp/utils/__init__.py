"""Shared machinery below every stage: batches, input checks, memory, random streams, rules."""

from ._batch import (
    join_batch,
    map_items,
    split_batch,
)
from ._memory import (
    available_memory,
    check_memory,
    memory_limits,
    physical_memory,
)
from ._output import (
    OUTPUT_KINDS,
    ContainerOutputMixin,
    TableOutputMixin,
)
from ._params import (
    RULES,
    Interval,
    InvalidParameterError,
    Options,
    ParamsMixin,
    Rule,
    check_param,
    validate_params,
)
from ._random import (
    SECURE,
    ChaCha20Random,
    OSRandom,
    block_streams,
    check_random_state,
    item_streams,
    stage_tag,
    validate_random_state,
)
from ._validation import (
    check_adjacency,
    check_epsilon,
    check_epsilon_array,
    check_positive_int,
    check_probability,
    check_symmetric_matrix,
)

__all__ = [
    "split_batch",
    "map_items",
    "join_batch",
    "check_epsilon",
    "check_epsilon_array",
    "check_adjacency",
    "check_symmetric_matrix",
    "check_probability",
    "check_positive_int",
    "memory_limits",
    "available_memory",
    "SECURE",
    "OSRandom",
    "ChaCha20Random",
    "block_streams",
    "item_streams",
    "stage_tag",
    "check_random_state",
    "validate_random_state",
    "TableOutputMixin",
    "ContainerOutputMixin",
    "OUTPUT_KINDS",
    "InvalidParameterError",
    "Interval",
    "Options",
    "Rule",
    "RULES",
    "ParamsMixin",
    "validate_params",
    "check_param",
    "physical_memory",
    "check_memory",
]
