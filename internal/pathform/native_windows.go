package pathform

// Native is the flavour of the operating system the host runs on.
const Native = Windows
