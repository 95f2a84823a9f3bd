// Package secrettest makes secret-shaped strings for tests: an AWS access
// key id and an OpenSSH private key that the content scan recognises,
// drawn from a seeded generator at run time, so that no secret-shaped
// string sits in the repository (where scanners would flag it).
package secrettest

import (
	"encoding/json"
	"math/rand/v2"
	"strings"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
)

// Token returns n characters of alphabet drawn from a generator seeded
// with seed.
func Token(seed uint64, alphabet string, n int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// AWSKeyID returns an AWS access key id (rule aws-access-token).
func AWSKeyID(seed uint64) string {
	return "AKIA" + Token(seed, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
}

// OpenSSHKey returns an OpenSSH private key block (rule private-key) of
// lines of 70 characters, ending in a newline.
func OpenSSHKey(seed uint64) string {
	body := Token(seed, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 1610)
	var b strings.Builder
	b.WriteString("-----BEGIN OPENSSH PRIVATE KEY-----\n")
	for len(body) > 70 {
		b.WriteString(body[:70] + "\n")
		body = body[70:]
	}
	b.WriteString(body + "\n-----END OPENSSH PRIVATE KEY-----\n")
	return b.String()
}

// KeyLines returns the body lines of key (an OpenSSHKey), without the
// BEGIN and END lines: what must never be seen outside.
func KeyLines(key string) []string {
	lines := strings.Split(strings.TrimSpace(key), "\n")
	return lines[1 : len(lines)-1]
}

// Document is a file of one format the document converter reads.
type Document struct {
	Name string
	Data []byte
}

// Documents returns one file of every format the document converter
// reads (text, Markdown, HTML, CSV, TSV, JSON, XML, notebook, DOCX, ODT,
// ODS, PPTX, XLSX, EPUB, a ZIP member, PDF), each holding the AWS key id
// aws (in its title too where the format has one) and the OpenSSH key
// key, as the format writes text.
func Documents(aws, key string) []Document {
	lines := strings.Split(strings.TrimSpace(key), "\n")
	text := "Deploy notes\n\naws_access_key_id = " + aws + "\n\n" + key
	para := func(open, close string) string {
		var b strings.Builder
		for _, l := range append([]string{"aws_access_key_id = " + aws}, lines...) {
			b.WriteString(open + l + close)
		}
		return b.String()
	}
	cells := [][]any{{"name", "value"}, {"aws", aws}, {"key", key}}
	var pdfLines []docgen.Line
	for _, l := range append([]string{"aws_access_key_id = " + aws}, lines...) {
		pdfLines = append(pdfLines, docgen.Line{Size: 9, Text: l})
	}
	nb, _ := json.Marshal(map[string]any{"nbformat": 4, "metadata": map[string]any{}, "cells": []any{
		map[string]any{"cell_type": "markdown", "source": []string{"# " + aws + "\n"}},
		map[string]any{"cell_type": "code", "source": "print(key)", "outputs": []any{map[string]any{"output_type": "stream", "text": []string{key}}}},
	}})
	js, _ := json.Marshal(map[string]string{"aws_access_key_id": aws, "key": key})
	csvQuote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	return []Document{
		{"notes.txt", []byte(text)},
		{"deploy.md", []byte("# " + aws + "\n\n" + text)},
		{"page.html", []byte("<html><head><title>" + aws + "</title></head><body><pre>" + key + "</pre><p>aws_access_key_id = " + aws + "</p></body></html>")},
		{"keys.csv", []byte("name,value\naws," + aws + "\nkey," + csvQuote(key) + "\n")},
		{"keys.tsv", []byte("name\tvalue\naws\t" + aws + "\n")},
		{"keys.json", js},
		{"keys.xml", []byte("<?xml version=\"1.0\"?><keys><aws>" + aws + "</aws><key>" + key + "</key></keys>")},
		{"keys.ipynb", nb},
		{"keys.docx", docgen.DOCX(docgen.Para("Title", aws)+para(`<w:p><w:r><w:t>`, `</w:t></w:r></w:p>`), "")},
		{"keys.odt", docgen.ODT(`<text:h text:outline-level="1">` + aws + `</text:h>` + para(`<text:p>`, `</text:p>`))},
		{"keys.ods", docgen.ODS(`<table:table table:name="` + aws + `"><table:table-row><table:table-cell><text:p>` + aws + `</text:p></table:table-cell></table:table-row></table:table>`)},
		{"keys.pptx", docgen.PPTX([]docgen.Slide{{Title: aws, Body: append([]string{"aws_access_key_id = " + aws}, lines...), Notes: key}})},
		{"keys.xlsx", docgen.XLSX(aws[:20], cells)},
		{"keys.epub", docgen.EPUB(aws, "<h1>"+aws+"</h1>"+para("<p>", "</p>"))},
		{"keys.zip", docgen.Zip(docgen.File{Name: "notes.txt", Data: []byte(text)}, docgen.File{Name: aws + ".txt", Data: []byte("x")})},
		{"keys.pdf", docgen.PDF([][]docgen.Line{pdfLines}, docgen.PDFOptions{Title: aws})},
	}
}

// Fragments returns pieces of the secrets that must not appear in
// anything sent out, however a format quoted or escaped the rest: the
// key id, and runs of 12 letters and digits from each line of the key's
// body (base64's + and / may come back escaped).
func Fragments(aws, key string) []string {
	out := []string{aws}
	for _, l := range KeyLines(key) {
		run := 0
		for i := 0; i < len(l); i++ {
			c := l[i]
			if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
				run++
				if run == 12 {
					out = append(out, l[i-11:i+1])
					break
				}
			} else {
				run = 0
			}
		}
	}
	return out
}
