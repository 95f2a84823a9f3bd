package pathform_test

import (
	"errors"
	"fmt"

	"github.com/deskbridge/deskbridge/internal/pathform"
)

func ExampleParse() {
	p, err := pathform.Parse(pathform.Windows, "d:/Projects/Demo/../Demo/README.md")
	fmt.Println(p.Clean, p.Volume, p.Elems, err)

	_, err = pathform.Parse(pathform.Windows, `D:\Projects\CON.txt`)
	fmt.Println(errors.Is(err, pathform.ErrReserved))
	fmt.Println(err)
	// Output:
	// D:\Projects\Demo\README.md D: [Projects Demo README.md] <nil>
	// true
	// The name "CON.txt" is a reserved Windows device name; choose another name.
}

func ExampleWithin() {
	root, _ := pathform.Parse(pathform.Windows, `D:\ws`)
	inside, _ := pathform.Parse(pathform.Windows, `d:\WS\src\main.go`)
	sibling, _ := pathform.Parse(pathform.Windows, `D:\ws-evil\x`)
	fmt.Println(pathform.Within(root, inside))
	fmt.Println(pathform.Within(root, sibling))
	// Output:
	// src/main.go true
	//  false
}
