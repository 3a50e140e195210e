#!/usr/bin/env python3
"""Read a PocketSphinx sendump and write/read a Sphinx-3 mixture_weights file.

s3 mixture_weights layout (all little-endian on x86/arm64; readers byte-swap by the magic):
  ASCII header:  "s3\n" "version 1.0\n" "chksum0 yes\n"  then 0..7 spaces of padding so that
                 the end of the following "endhdr\n" falls on an 8-byte boundary, then "endhdr\n"
                 (for this header: 27 + 6 spaces + 7 = 40 bytes)
  uint32 0x11223344   byte-order magic, written in native order (44 33 22 11 on LE)
  uint32 n_mixw       (= #senones, 5126)
  uint32 n_feat       (= #streams, 3)
  uint32 n_density    (= #codewords, 128)
  uint32 n            (= n_mixw*n_feat*n_density)
  float32[n]          weights, index [senone][stream][codeword], each row sums to 1
  uint32 checksum     sum=0; for every uint32 word w of (n_mixw, n_feat, n_density, n, data...):
                      sum = rotl(sum, 20) + w   (mod 2^32)  -- (sum<<20 | sum>>12) + w
"""
import struct, sys
import numpy as np

MAGIC = 0x11223344


def read_sendump(path):
    """Returns (n_feat, n_density, n_sen, uint8 array [feat][density][sen], header strings)."""
    b = open(path, 'rb').read()
    off = 0
    hdr = []
    while True:
        (n,) = struct.unpack_from('<i', b, off); off += 4
        if n == 0:
            break
        hdr.append(b[off:off + n].rstrip(b'\0').decode()); off += n
    n_feat, n_clust = 1, 0
    for h in hdr:
        if h.startswith('feature_count '):
            n_feat = int(h.split()[1])
        if h.startswith('cluster_count '):
            n_clust = int(h.split()[1])
    assert n_clust == 0
    r, c = struct.unpack_from('<ii', b, off); off += 8   # rows = n_density, cols = n_sen
    q = np.frombuffer(b, dtype=np.uint8, count=n_feat * r * c, offset=off).reshape(n_feat, r, c)
    assert off + n_feat * r * c == len(b), (off, len(b))
    return n_feat, r, c, q, hdr


def sendump_to_mixw(q):
    """uint8 [feat][density][sen] -> float32 [sen][feat][density]; w = 1.0001 ** -(v << 10)."""
    w = np.power(1.0001, -(q.astype(np.float64) * 1024.0))
    return np.ascontiguousarray(w.transpose(2, 0, 1)).astype(np.float32)


def chksum(words):
    s = 0
    for w in words:
        s = (((s << 20) | (s >> 12)) + int(w)) & 0xffffffff
    return s


def chksum_np(arr_u32, s=0):
    # same as chksum() but fast enough for 2M words
    s = int(s)
    for w in arr_u32.tolist():
        s = (((s << 20) | (s >> 12)) + w) & 0xffffffff
    return s


def write_mixw(path, mixw):
    n_mixw, n_feat, n_den = mixw.shape
    head = b's3\nversion 1.0\nchksum0 yes\n'
    pad = (8 - ((len(head) + 7) & 7)) % 8
    head += b' ' * pad + b'endhdr\n'
    dims = np.array([n_mixw, n_feat, n_den, n_mixw * n_feat * n_den], dtype='<u4')
    data = np.ascontiguousarray(mixw, dtype='<f4')
    s = chksum_np(dims)
    s = chksum_np(data.view('<u4').ravel(), s)
    with open(path, 'wb') as f:
        f.write(head)
        f.write(struct.pack('<I', MAGIC))
        f.write(dims.tobytes())
        f.write(data.tobytes())
        f.write(struct.pack('<I', s))


def read_mixw(path):
    b = open(path, 'rb').read()
    i = b.index(b'endhdr\n') + 7
    (magic,) = struct.unpack_from('<I', b, i); i += 4
    assert magic == MAGIC
    d1, d2, d3, n = struct.unpack_from('<4I', b, i); i += 16
    data = np.frombuffer(b, dtype='<f4', count=n, offset=i).reshape(d1, d2, d3)
    i += 4 * n
    (s,) = struct.unpack_from('<I', b, i)
    calc = chksum_np(np.array([d1, d2, d3, n], dtype='<u4'))
    calc = chksum_np(data.view('<u4').ravel(), calc)
    assert s == calc, (hex(s), hex(calc))
    assert i + 4 == len(b)
    return data


if __name__ == '__main__':
    if sys.argv[1] == 'fromsendump':         # s3mixw.py fromsendump SENDUMP OUT_MIXW
        nf, nd, ns, q, hdr = read_sendump(sys.argv[2])
        print('sendump header:', hdr, 'feat', nf, 'density', nd, 'senones', ns, file=sys.stderr)
        write_mixw(sys.argv[3], sendump_to_mixw(q))
    elif sys.argv[1] == 'check':             # s3mixw.py check MIXW
        m = read_mixw(sys.argv[2])
        print(m.shape, 'checksum ok; row sums min %.6f max %.6f' % (m.sum(2).min(), m.sum(2).max()))
