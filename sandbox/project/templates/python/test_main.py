"""Tests of the starting point: run them with python3 -m unittest."""

import unittest

from main import greeting


class GreetingTest(unittest.TestCase):
    def test_greeting(self) -> None:
        self.assertEqual(greeting(), "Hello from {{name}}")


if __name__ == "__main__":
    unittest.main()
