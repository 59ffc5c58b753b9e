"""Python's side of issue 36: positions come back as tuples (`.move` as
`winning_moves` gives them), `force=` as the command line's `--force` (with
`overwrite=` a deprecated alias), pictures a notebook shows at a readable size, and
numpy arrays of floats refused."""

import base64
import warnings

import numpy as np
import pytest

import sicher


def test_a_move_is_a_tuple_as_winning_moves_gives_them():
    game = sicher.Game("kayles", misere=True)
    answer = game.check([3, 4, 5])
    assert answer.move == (1, 1, 4, 5)
    assert isinstance(answer.move, tuple)
    assert answer.move in game.winning_moves([3, 4, 5])
    assert "move=(1, 1, 4, 5)" in repr(answer)
    assert sicher.Game("nim").check([3]).move == ()
    assert sicher.Game("nim").check([1, 1]).move is None


def test_force_replaces_a_file_and_overwrite_is_a_deprecated_alias(tmp_path):
    path = tmp_path / "nim.table"
    game = sicher.Game("nim")
    game.write_table(path, total=6)
    with pytest.raises(FileExistsError):
        game.write_table(path, total=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game.write_table(path, total=7, force=True)
    with pytest.warns(DeprecationWarning, match="force="):
        game.write_table(path, total=8, overwrite=True)
    with pytest.raises(sicher.Error, match="disagree"):
        game.write_table(path, total=8, force=False, overwrite=True)
    picture = game.picture(4)
    png = tmp_path / "map.png"
    picture.save(png)
    with pytest.raises(FileExistsError):
        picture.save(png)
    picture.save(png, force=True)
    with pytest.warns(DeprecationWarning):
        picture.save(png, overwrite=True)


def test_pictures_show_at_a_readable_size_in_a_notebook():
    game = sicher.Game("wythoff")
    picture = game.picture(60)
    # The PNG keeps a pixel a position; a notebook draws it at least 480 pixels wide,
    # its pixels sharp.
    assert (picture.width, picture.display_width) == (61, 480)
    bundle = picture._repr_mimebundle_()
    assert bundle["image/png"] == picture.png
    html = bundle["text/html"]
    assert 'width="480"' in html and "pixelated" in html
    assert base64.b64decode(html.split("base64,")[1].split('"')[0]) == picture.png
    assert game.picture(60, display_width=900).display_width == 900
    assert game.picture(60, scale=3).width == 183
    # A large map is shown at its own size.
    assert game.picture(599).display_width == 600
    with pytest.raises(sicher.Error, match="scale"):
        game.picture(10, scale=0)
    with pytest.raises(sicher.Error, match="display_width"):
        game.picture(10, display_width=0)


def test_probe_many_refuses_float_arrays(tmp_path):
    table = sicher.Game("nim").write_table(tmp_path / "nim.table", total=8)
    for bad in (np.array([[3.0, 4.0]]), np.array([[3, 4]], dtype=np.float32), [[3.5, 1]]):
        with pytest.raises(TypeError) as caught:
            table.probe_many(bad)
        assert "integer" in str(caught.value) or "int" in str(caught.value)
