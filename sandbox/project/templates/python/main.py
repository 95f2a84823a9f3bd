"""{{name}}."""


def main() -> None:
    print("Hello from {{name}}")


if __name__ == "__main__":
    main()
