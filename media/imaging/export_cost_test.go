package imaging

// CheckCost is checkCost, for the tests: the cost of decoding b, without
// decoding it.
func CheckCost(b []byte, lim Limits) error {
	in, err := Inspect(b, lim)
	if err != nil {
		return err
	}
	return checkCost(b, in, lim)
}
