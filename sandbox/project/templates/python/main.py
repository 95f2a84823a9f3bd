"""{{name}}."""


def greeting() -> str:
    """Return what the program says."""
    return "Hello from {{name}}"


def main() -> None:
    print(greeting())


if __name__ == "__main__":
    main()
