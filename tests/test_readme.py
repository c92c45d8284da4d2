"""The README's Python example is a doctest; the commands it names exist."""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_example_runs() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_package_doctests() -> None:
    import rules
    import rules.game
    import rules.point
    import rules.position
    import rules.rotation

    for mod in (rules, rules.game, rules.point, rules.position, rules.rotation):
        result = doctest.testmod(mod)
        assert result.failed == 0, mod.__name__
