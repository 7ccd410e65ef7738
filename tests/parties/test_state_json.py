"""A table's state is encoded at every tap with orjson (services/log.py ``state_json``): what
it writes must read back exactly as the standard library's encoding of the same state."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from apps.parties.services.log import state_json

scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text()
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8) | st.integers(0, 99), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(st.dictionaries(st.text(max_size=10), values, max_size=8))
def test_a_state_reads_back_as_the_standard_encoding_of_it(data):
    assert json.loads(state_json(data)) == json.loads(json.dumps(data))


def test_names_beyond_ascii_and_line_separators_read_back_as_they_were():
    data = {"players": ["Zoë", "José", "李", "a\u2028b", 'quote " and \\'], "scores": [0, 21]}
    assert json.loads(state_json(data)) == data
    assert state_json({"tallies": {0: 1}}) == '{"tallies":{"0":1}}'
