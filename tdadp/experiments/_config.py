"""Experiment configurations: defaults at the top of each pipeline, overrides from a file.

A configuration is a flat dict. A file (JSON or TOML) may override any key the experiment
declares; unknown keys, values of the wrong type and values outside the key's declared rule
(:data:`RULES` of the pipeline, checked by :func:`check_config`) are errors found before any
work starts.
"""

from __future__ import annotations

import json
import numbers
from dataclasses import dataclass
from pathlib import Path

from ..utils._params import InvalidParameterError, check_param

__all__ = ["ConfigError", "Values", "check_config", "load_config_file", "resolve_config"]


class ConfigError(ValueError):
    """A configuration or command line that cannot run; the message is one line."""


def _clip(text, limit=200):
    text = " ".join(str(text).split())  # one line
    return text if len(text) <= limit else text[:limit] + "..."


@dataclass(frozen=True)
class Values:
    """The declared rule of a list-valued config key: ``min_len`` to ``max_len`` items, each
    satisfying one of the constraints (as :func:`tdadp.utils.check_param` takes them)."""

    rule: tuple
    min_len: int = 1
    max_len: int = 100

    def __init__(self, *rule, min_len=1, max_len=100):
        object.__setattr__(self, "rule", tuple(rule))
        object.__setattr__(self, "min_len", min_len)
        object.__setattr__(self, "max_len", max_len)


def _check(value, rule, name, experiment):
    try:
        check_param(value, list(rule), name)
    except InvalidParameterError as exc:
        raise ConfigError(f"{experiment}: {_clip(exc)}") from None
    except OverflowError:  # an integer beyond floats, which Interval compares as floats
        must = " or ".join(str(r) for r in rule)
        raise ConfigError(f"{experiment}: {name} must be {must}; got an integer of "
                          f"{int(value).bit_length()} bits") from None


def check_config(rules, config, *, experiment="experiment"):
    """Check every key of ``config`` against its declared rule in ``rules``.

    A rule is a list of constraints (any one of which the value may satisfy:
    :class:`~tdadp.utils.Interval`, :class:`~tdadp.utils.Options`, a type, ...) or a
    :class:`Values` for a list.

    Raises
    ------
    ConfigError
        One line naming the experiment, the key (and the item of a list), what it must be
        and the value.
    KeyError
        If a key has no declared rule (a pipeline must declare one for each).
    """
    undeclared = sorted(set(config) - set(rules))
    if undeclared:
        raise KeyError(f"{experiment} declares no rule for its config key(s) {undeclared}.")
    for key, value in config.items():
        rule = rules[key]
        if not isinstance(rule, Values):
            _check(value, rule, key, experiment)
            continue
        if not isinstance(value, (list, tuple)) or \
                not rule.min_len <= len(value) <= rule.max_len:
            size = f"{len(value)} values" if isinstance(value, (list, tuple)) else \
                _clip(repr(value), 80)
            count = (f"{rule.min_len}" if rule.min_len == rule.max_len
                     else f"{rule.min_len} to {rule.max_len}")
            raise ConfigError(f"{experiment}: {key} must be a list of {count} values, got "
                              f"{size}")
        for i, item in enumerate(value):
            _check(item, rule.rule, f"{key}[{i}]", experiment)


_MAX_CONFIG_BYTES = 1 << 20


def load_config_file(path):
    """Read a JSON (``.json``) or TOML (``.toml``) file into a dict."""
    path = Path(path)
    try:
        size = path.stat().st_size if path.is_file() else None
    except (OSError, ValueError):  # unreadable, a NUL byte in the name
        size = None
    if size is None:
        raise ConfigError(f"config file {str(path)[:200]!r} does not exist")
    if size > _MAX_CONFIG_BYTES:
        raise ConfigError(f"config file {str(path)!r} holds {size:,} bytes; a configuration "
                          f"is a few lines (at most {_MAX_CONFIG_BYTES:,} bytes)")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"config file {str(path)!r} cannot be read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path.name!r} is not UTF-8 text (byte "
                          f"0x{raw[exc.start]:02x} at offset {exc.start}); save it as "
                          "UTF-8") from None
    try:
        if path.suffix == ".toml":
            try:
                import tomllib
            except ModuleNotFoundError:  # Python 3.10
                import tomli as tomllib
            data = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            raise ConfigError(f"config file {path.name!r}: use a .json or .toml file")
    except ConfigError:
        raise
    except Exception as exc:  # parse errors of either format
        raise ConfigError(f"config file {path.name!r} could not be parsed: "
                          f"{_clip(exc)}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path.name!r} must hold a table of settings")
    return data


def _matches(default, value):
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, numbers.Integral):
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if isinstance(default, numbers.Real):
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, (list, tuple)):
        if not isinstance(value, (list, tuple)):
            return False  # an empty list is the declared rule's to judge (check_config)
        if default:
            return all(_matches(default[0], v) for v in value)
        return True
    return True


def resolve_config(defaults, overrides=(), *, experiment="experiment"):
    """Defaults updated by each mapping of ``overrides`` in turn, type-checked.

    Raises
    ------
    ConfigError
        Unknown key, or a value whose type differs from the default's.
    """
    config = dict(defaults)
    for layer in overrides:
        for key, value in (layer or {}).items():
            if key not in defaults:
                raise ConfigError(
                    f"{experiment}: unknown config key {_clip(repr(key), 80)} (known: "
                    f"{', '.join(sorted(defaults))})")
            if not _matches(defaults[key], value):
                raise ConfigError(
                    f"{experiment}: {key} = {_clip(repr(value), 80)} should be like the "
                    f"default {defaults[key]!r}")
            config[key] = list(value) if isinstance(value, tuple) else value
    return config
