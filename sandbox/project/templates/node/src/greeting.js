// greeting is what the program says.
export function greeting() {
  return "Hello from {{name}}";
}
