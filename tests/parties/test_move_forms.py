"""A move on a phone is a form live.js sends over the socket: the rules' fields, the table,
the round and the moment of the table it was offered at (a tap for an earlier moment is
refused); drawn once and reused with only the moment changed."""

from __future__ import annotations

from apps.parties.templatetags.bunko import _move_around, move

TABLE = {"number": 7, "round": 3}


def inputs(html: str) -> list[str]:
    return [part.split('"')[0] for part in html.split('name="')[1:]]


def test_a_move_carries_its_fields_its_table_and_the_moment_it_was_offered_at():
    button = {"label": "One 6", "aria": "", "style": "big", "fields": {"type": "report",
              "kind": "sixes", "count": 1}}  # fmt: skip
    html = move(button, TABLE, 12)
    assert inputs(html) == ["type", "kind", "count", "target", "table", "round", "at"]
    assert '<input type="hidden" name="count" value="1">' in html
    assert '<input type="hidden" name="table" value="7">' in html
    assert '<input type="hidden" name="round" value="3">' in html
    assert '<input type="hidden" name="at" value="12">' in html
    assert '<button class="button big" type="submit">One 6</button>' in html
    assert move(button, TABLE, 13).replace('value="13"', 'value="12"') == html


def test_a_wide_move_and_a_spoken_label_with_names_typed_by_players():
    button = {
        "label": "2 – 1",
        "aria": "Ann {at} {table} {round} & <Bo> grabbed 2",
        "style": "big wide",
        "fields": {"type": "scramble", "team0": 2, "team1": 1},
    }
    html = move(button, TABLE, 5)
    assert html.startswith('<form data-live-action class="move wide">')
    assert 'aria-label="Ann {at} {table} {round} &amp; &lt;Bo&gt; grabbed 2"' in html
    assert '<input type="hidden" name="at" value="5">' in html


def test_a_nights_hundreds_of_tables_and_rounds_share_one_drawing_of_each_move():
    roll = {"label": "ROLL", "aria": "", "style": "big primary roll", "fields": {"type": "roll"}}
    _move_around.cache_clear()
    for round_number in range(1, 31):
        for number in range(1, 101):
            html = move(roll, {"number": number, "round": round_number}, 1)
    assert '<input type="hidden" name="table" value="100">' in html
    assert '<input type="hidden" name="round" value="30">' in html
    assert _move_around.cache_info().currsize == 1
