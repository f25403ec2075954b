"""Experiment configurations: defaults at the top of each pipeline, overrides from a file.

A configuration is a flat dict. A file (JSON or TOML) may override any key the experiment
declares; unknown keys and values of the wrong type are errors found before any work starts.
"""

from __future__ import annotations

import json
import numbers
from pathlib import Path

__all__ = ["ConfigError", "load_config_file", "resolve_config"]


class ConfigError(ValueError):
    """A configuration or command line that cannot run; the message is one line."""


def load_config_file(path):
    """Read a JSON (``.json``) or TOML (``.toml``) file into a dict."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file {str(path)!r} does not exist")
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
        raise ConfigError(f"config file {path.name!r} could not be parsed: {exc}") from None
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
        if not isinstance(value, (list, tuple)) or not value:
            return False
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
                    f"{experiment}: unknown config key {key!r} (known: "
                    f"{', '.join(sorted(defaults))})")
            if not _matches(defaults[key], value):
                raise ConfigError(
                    f"{experiment}: {key} = {value!r} should be like the default "
                    f"{defaults[key]!r}")
            config[key] = list(value) if isinstance(value, tuple) else value
    return config
