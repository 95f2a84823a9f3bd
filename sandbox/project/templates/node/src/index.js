console.log("Hello from {{name}}");
