"""Response bodies: orjson with pre-encoded parts, the standard library for what orjson refuses."""

import datetime
import json

from officesim.server.jsonbody import Encoded, dumps


def test_encoded_parts_appear_as_their_value():
    tools = Encoded([{"type": "function", "function": {"name": "word.read_file"}}])
    body = json.loads(dumps({"ok": True, "tools": tools, "prompt": Encoded("Téâ \"quoted\"\n")}))
    assert body == {"ok": True, "tools": tools.value, "prompt": "Téâ \"quoted\"\n"}


def test_non_json_values_become_their_str_as_before():
    when = datetime.datetime(2026, 4, 2, 9, 15)
    body = json.loads(dumps({"when": when, 3: "int key", "set": {"a"} and str({"a"})}))
    assert body == {"when": "2026-04-02 09:15:00", "3": "int key", "set": "{'a'}"}


def test_integers_beyond_64_bits_fall_back_without_losing_encoded_parts():
    big = 2 ** 70
    body = json.loads(dumps({"data": big, "tools": Encoded(["x"])}))
    assert body == {"data": big, "tools": ["x"]}
