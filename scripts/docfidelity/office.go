package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// officeRows measures the Office 97–2003 and RTF readers on files a real
// office suite wrote: LibreOffice (soffice, headless, with a profile in
// dir) converts pandoc's DOCX to .doc and .rtf, pandoc's PPTX to .ppt,
// and pandoc's DOCX's tables (written as a CSV per table, one sheet) to
// .xls. The reference of the .doc and .rtf is pandoc's reading of the DOCX
// they were made from; of the .ppt, the source; of the .xls, the CSV.
// Without soffice it says so and measures nothing.
func officeRows(dir, srcGFM string) []row {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		fmt.Fprintln(os.Stderr, "docfidelity: soffice (LibreOffice) is not installed: no doc, ppt, xls rows written by LibreOffice")
		return nil
	}
	docx, pptx := filepath.Join(dir, "doc.docx"), filepath.Join(dir, "doc.pptx")
	docxGFM := string(pandoc("-t", "gfm", docx))
	csv := filepath.Join(dir, "tables.csv")
	if err := os.WriteFile(csv, []byte(tablesCSV(docxGFM)), 0o644); err != nil {
		panic(err)
	}
	var rows []row
	for _, k := range []struct{ from, to, madeBy, oracle, ref string }{
		{docx, "doc", "LibreOffice from pandoc's DOCX", "pandoc -t gfm of the DOCX it was made from", docxGFM},
		{docx, "rtf", "LibreOffice from pandoc's DOCX", "pandoc -t gfm of the DOCX it was made from", docxGFM},
		{pptx, "ppt", "LibreOffice from pandoc's PPTX", "the source (pandoc -t gfm)", srcGFM},
		{csv, "xls", "LibreOffice from the DOCX's tables as one CSV", "the CSV it was made from (its words)", tablesCSV(docxGFM)},
	} {
		out := filepath.Join(dir, "lo")
		args := []string{"-env:UserInstallation=file://" + filepath.Join(dir, "lo-profile"), "--headless", "--convert-to", k.to, "--outdir", out, k.from}
		if k.to == "xls" {
			args = append(args[:2], append([]string{"--infilter=CSV:44,34,76"}, args[2:]...)...)
		}
		ro := row{format: k.to + " (LibreOffice)", madeBy: k.madeBy, oracle: k.oracle, ref: k.ref}
		if b, err := exec.Command(soffice, args...).CombinedOutput(); err != nil {
			ro.err = fmt.Errorf("soffice: %v: %s", err, b)
		} else if b, err := os.ReadFile(filepath.Join(out, strings.TrimSuffix(filepath.Base(k.from), filepath.Ext(k.from))+"."+k.to)); err != nil {
			ro.err = err
		} else {
			ro.got, ro.err = convert(b)
		}
		rows = append(rows, ro)
	}
	return rows
}

// tablesCSV is every GFM table row of md, one CSV line per row, the
// separator rows left out: a sheet of the document's tables.
func tablesCSV(md string) string {
	var b strings.Builder
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") || tableRule.MatchString(l) {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i, c := range cells {
			cells[i] = `"` + strings.ReplaceAll(strings.TrimSpace(c), `"`, `""`) + `"`
		}
		b.WriteString(strings.Join(cells, ",") + "\n")
	}
	return b.String()
}
