package workspace

// readObserver is told of every whole-file read while a test observes.
var readObserver func(path string)

// ObserveReads calls f with the path of each file read whole (ReadFile,
// LoadConfig, the stream of ReadAfterMarks) until stop is called. Peeks
// at a file's start or end (the root search, append's tail) are not
// reported. It exists for the tests that hold every command to reading
// each file once; it is not safe for concurrent use.
func ObserveReads(f func(path string)) (stop func()) {
	readObserver = f
	return func() { readObserver = nil }
}

func observeRead(path string) {
	if readObserver != nil {
		readObserver(path)
	}
}
