package learn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// The weights file: "WLM3", the bucket bits (a byte), the bias (float64, little endian), the threshold
// (float64), the length and bytes of the training data's SHA-256 in hex, the number of fields the model
// reads (uvarint; 0 for all) and each field's length and bytes, then every nonzero weight as the gap from
// the previous index (uvarint) and its value (float32). "WLM1" and "WLM2" files weigh character n-grams
// this build no longer reads: they are refused, to be trained again.
const magic = "WLM3"

// File is a model as shipped: its weights, the threshold it was calibrated at, and the hash of the data it
// was trained on.
type File struct {
	Model     *Model
	Threshold float64
	// DataSHA256 names the training data: the same hash, the same data.
	DataSHA256 string
}

// MarshalBinary writes the file.
func (f File) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(magic)
	b.WriteByte(Bits)
	_ = binary.Write(&b, binary.LittleEndian, f.Model.Bias)
	_ = binary.Write(&b, binary.LittleEndian, f.Threshold)
	b.Write(binary.AppendUvarint(nil, uint64(len(f.DataSHA256))))
	b.WriteString(f.DataSHA256)
	b.Write(binary.AppendUvarint(nil, uint64(len(f.Model.Fields))))
	for _, field := range f.Model.Fields {
		b.Write(binary.AppendUvarint(nil, uint64(len(field))))
		b.WriteString(field)
	}
	var n int
	for _, w := range f.Model.Weights {
		if w != 0 {
			n++
		}
	}
	b.Write(binary.AppendUvarint(nil, uint64(n)))
	prev := 0
	for i, w := range f.Model.Weights {
		if w == 0 {
			continue
		}
		b.Write(binary.AppendUvarint(nil, uint64(i-prev)))
		_ = binary.Write(&b, binary.LittleEndian, math.Float32bits(w))
		prev = i
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads a file MarshalBinary wrote.
func (f *File) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	head := make([]byte, len(magic)+1)
	if _, err := r.Read(head); err != nil || !strings.HasPrefix(string(head), "WLM") {
		return errors.New("learn: not a weights file")
	}
	if v := string(head[:len(magic)]); v == "WLM1" || v == "WLM2" {
		return errors.New("learn: a weights file of an earlier build, whose models read character n-grams; train it again with warden calibrate --train")
	} else if v != magic {
		return errors.New("learn: not a weights file")
	}
	if head[len(magic)] != Bits {
		return fmt.Errorf("learn: the file has %d bucket bits, this build %d", head[len(magic)], Bits)
	}
	m := &Model{Weights: make([]float32, buckets)}
	if err := binary.Read(r, binary.LittleEndian, &m.Bias); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	if err := binary.Read(r, binary.LittleEndian, &f.Threshold); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	hl, err := binary.ReadUvarint(r)
	if err != nil || hl > 128 {
		return errors.New("learn: a bad data hash")
	}
	h := make([]byte, hl)
	if _, err := r.Read(h); err != nil && hl > 0 {
		return fmt.Errorf("learn: %w", err)
	}
	if m.Fields, err = readFields(r); err != nil {
		return err
	}
	n, err := binary.ReadUvarint(r)
	if err != nil || n > buckets {
		return errors.New("learn: a bad weight count")
	}
	idx := 0
	for k := uint64(0); k < n; k++ {
		gap, err := binary.ReadUvarint(r)
		if err != nil {
			return fmt.Errorf("learn: weight %d: %w", k, err)
		}
		if gap >= buckets || idx+int(gap) >= buckets || k > 0 && gap == 0 {
			return fmt.Errorf("learn: weight %d beyond the buckets or repeated", k)
		}
		idx += int(gap)
		var bits uint32
		if err := binary.Read(r, binary.LittleEndian, &bits); err != nil {
			return fmt.Errorf("learn: weight %d: %w", k, err)
		}
		m.Weights[idx] = math.Float32frombits(bits)
	}
	if r.Len() != 0 {
		return errors.New("learn: data after the weights")
	}
	f.Model, f.DataSHA256 = m, string(h)
	return nil
}

// readFields reads the fields a model reads, each one of TextsOf's names or RuleSignals.
func readFields(r *bytes.Reader) ([]string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > 4 {
		return nil, errors.New("learn: a bad field count")
	}
	var fields []string
	for range n {
		l, err := binary.ReadUvarint(r)
		if err != nil || l != 1 {
			return nil, errors.New("learn: a bad field")
		}
		c, err := r.ReadByte()
		if err != nil || !strings.ContainsRune("iqostr", rune(c)) {
			return nil, errors.New("learn: a field that is none of i, q, o, s, t, r")
		}
		fields = append(fields, string(c))
	}
	return fields, nil
}

// ReadDir reads every weights file (NAME.wlm) in dir, by the detector each names: what
// `warden calibrate --train` writes into its learned directory. An unreadable or malformed file is an
// error naming it; a directory without weights files is one too.
func ReadDir(dir string) (map[string]File, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.wlm"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: no weights files (DETECTOR.wlm) in it; warden calibrate --train --out DIR writes them into DIR/learned", dir)
	}
	out := map[string]File{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var f File
		if err := f.UnmarshalBinary(data); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".wlm")] = f
	}
	return out, nil
}
