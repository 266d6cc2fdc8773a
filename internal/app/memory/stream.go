package memory

// doneCount is the parse.Returner of a stream whose consumer is done
// with each event when it returns: it keeps only the event's strings,
// so the parser may put the next events in the same memory.
type doneCount struct{ n int }

func (d *doneCount) Taken() int    { return d.n }
func (d *doneCount) Returned() int { return d.n }
