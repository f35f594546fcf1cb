/* The Python client's fast path: decodes a serialized telestation.v1.ParameterBatch straight into
 * column arrays (one entry per sample), so that Python never touches a sample one by one.
 *
 * A plain C library with no Python headers (a C compiler is all it needs), loaded with ctypes by
 * _wire.py; setup.py builds it as an optional extension. Without it the client decodes with protobuf,
 * slower but the same columns (tests/test_wire.py checks that both agree).
 *
 * It follows the protobuf wire format and station.proto's field numbers: fields it does not know, and
 * known fields with an unexpected wire type, are skipped as protobuf itself does, so a newer v1 schema
 * (fields are only added) still decodes. A scalar given twice keeps the last value; of the `converted`
 * oneof the last one given wins. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The columns of a batch; each points to an array of `samples` entries (ts_count said how many). */
typedef struct {
    uint32_t* parameter_id;
    uint32_t* stream_id;
    int64_t* packet_time_ns;
    int64_t* receive_time_ns;
    uint64_t* raw;
    uint8_t* converted_kind;     /* the oneof's field number: 6 unsigned, 7 signed, 8 float, 9 length; 0 none */
    uint64_t* converted_bits;    /* the value's 64 bits (a double's IEEE bits for kind 8) */
    double* calibrated;
    int32_t* state;
    uint32_t* state_text_offset; /* where the state's text starts in the batch's bytes */
    uint32_t* state_text_length; /* its length in bytes (0: none) */
    uint8_t* limit;              /* LimitState; 255 for a value beyond 254 */
    uint8_t* present;
} ts_columns;

/* The (id, name) pairs of a batch: the name's bytes at `offset`, `length` long in the batch's bytes. */
typedef struct {
    uint32_t* id;
    uint32_t* offset;
    uint32_t* length;
} ts_names;

typedef struct {
    uint64_t samples;
    uint64_t parameter_names;
    uint64_t stream_names;
    uint64_t dropped;
    uint64_t delivered;
} ts_counts;

enum { kVarint = 0, kFixed64 = 1, kLength = 2, kFixed32 = 5 };

typedef struct {
    const uint8_t* p;
    const uint8_t* end;
} cursor;

static int read_varint(cursor* c, uint64_t* out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && c->p < c->end; shift += 7) {
        const uint8_t b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (b < 0x80) {
            *out = v;
            return 0;
        }
    }
    return -1;
}

static int read_fixed64(cursor* c, uint64_t* out)
{
    if (c->end - c->p < 8)
        return -1;
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | c->p[i];
    c->p += 8;
    *out = v;
    return 0;
}

/* A length-delimited field's bytes: [*begin, *begin + *length). */
static int read_length(cursor* c, const uint8_t** begin, uint64_t* length)
{
    if (read_varint(c, length) != 0 || (uint64_t)(c->end - c->p) < *length)
        return -1;
    *begin = c->p;
    c->p += *length;
    return 0;
}

static int skip(cursor* c, int wire)
{
    uint64_t v;
    const uint8_t* b;
    switch (wire) {
    case kVarint: return read_varint(c, &v);
    case kFixed64: return read_fixed64(c, &v);
    case kLength: return read_length(c, &b, &v);
    case kFixed32:
        if (c->end - c->p < 4)
            return -1;
        c->p += 4;
        return 0;
    default: return -1; /* groups are not in this schema */
    }
}

static int read_tag(cursor* c, uint64_t* field, int* wire)
{
    uint64_t tag;
    if (read_varint(c, &tag) != 0)
        return -1;
    *field = tag >> 3;
    *wire = (int)(tag & 7);
    return *field == 0 ? -1 : 0;
}

/* An IdName message at [p, end); the name's place relative to `base`. */
static int decode_name(const uint8_t* base, const uint8_t* p, const uint8_t* end, const ts_names* out, uint64_t i)
{
    cursor c = {p, end};
    uint32_t id = 0, offset = 0, length = 0;
    while (c.p < c.end) {
        uint64_t field, v;
        int wire;
        if (read_tag(&c, &field, &wire) != 0)
            return -1;
        if (field == 1 && wire == kVarint) {
            if (read_varint(&c, &v) != 0)
                return -1;
            id = (uint32_t)v;
        } else if (field == 2 && wire == kLength) {
            const uint8_t* b;
            if (read_length(&c, &b, &v) != 0)
                return -1;
            offset = (uint32_t)(b - base);
            length = (uint32_t)v;
        } else if (skip(&c, wire) != 0) {
            return -1;
        }
    }
    out->id[i] = id;
    out->offset[i] = offset;
    out->length[i] = length;
    return 0;
}

static int decode_sample(const uint8_t* base, const uint8_t* p, const uint8_t* end, const ts_columns* out, uint64_t i)
{
    cursor c = {p, end};
    uint32_t parameterId = 0, streamId = 0, textOffset = 0, textLength = 0;
    int64_t packetTime = 0, receiveTime = 0;
    uint64_t raw = 0, bits = 0, calibrated = 0;
    uint8_t kind = 0, limit = 0, present = 0;
    int32_t state = 0;
    while (c.p < c.end) {
        uint64_t field, v;
        int wire;
        if (read_tag(&c, &field, &wire) != 0)
            return -1;
        if (wire == kVarint && field <= 14 && field != 8 && field != 10 && field != 12) {
            if (read_varint(&c, &v) != 0)
                return -1;
            switch (field) {
            case 1: parameterId = (uint32_t)v; break;
            case 2: streamId = (uint32_t)v; break;
            case 3: packetTime = (int64_t)v; break;
            case 4: receiveTime = (int64_t)v; break;
            case 5: raw = v; break;
            case 6: case 7: case 9: kind = (uint8_t)field; bits = v; break;
            case 11: state = (int32_t)((uint32_t)(v >> 1) ^ (uint32_t)-(int64_t)(v & 1)); break; /* sint32: zigzag */
            case 13: limit = v > 254 ? 255 : (uint8_t)v; break;
            case 14: present = v != 0; break;
            default: break; /* an unknown varint field */
            }
        } else if (wire == kFixed64 && (field == 8 || field == 10)) {
            if (read_fixed64(&c, &v) != 0)
                return -1;
            if (field == 8) {
                kind = 8;
                bits = v;
            } else {
                calibrated = v;
            }
        } else if (wire == kLength && field == 12) {
            const uint8_t* b;
            if (read_length(&c, &b, &v) != 0)
                return -1;
            textOffset = (uint32_t)(b - base);
            textLength = (uint32_t)v;
        } else if (skip(&c, wire) != 0) {
            return -1;
        }
    }
    out->parameter_id[i] = parameterId;
    out->stream_id[i] = streamId;
    out->packet_time_ns[i] = packetTime;
    out->receive_time_ns[i] = receiveTime;
    out->raw[i] = raw;
    out->converted_kind[i] = kind;
    out->converted_bits[i] = bits;
    memcpy(&out->calibrated[i], &calibrated, sizeof(double));
    out->state[i] = state;
    out->state_text_offset[i] = textOffset;
    out->state_text_length[i] = textLength;
    out->limit[i] = limit;
    out->present[i] = present;
    return 0;
}

/* Walks a batch's top level; with `columns` NULL it only counts. 0, or -1 when the bytes are not a
 * ParameterBatch (or a batch is larger than 4 GiB, which the offsets cannot address). */
static int walk(const uint8_t* data, size_t size, ts_counts* counts, const ts_columns* columns,
                const ts_names* parameterNames, const ts_names* streamNames)
{
    if (size > UINT32_MAX)
        return -1;
    cursor c = {data, data + size};
    ts_counts n = {0, 0, 0, 0, 0};
    while (c.p < c.end) {
        uint64_t field, v;
        int wire;
        if (read_tag(&c, &field, &wire) != 0)
            return -1;
        if (wire == kLength && field >= 1 && field <= 3) {
            const uint8_t* b;
            if (read_length(&c, &b, &v) != 0)
                return -1;
            if (field == 3) {
                if (columns && decode_sample(data, b, b + v, columns, n.samples) != 0)
                    return -1;
                ++n.samples;
            } else if (field == 1) {
                if (columns && decode_name(data, b, b + v, parameterNames, n.parameter_names) != 0)
                    return -1;
                ++n.parameter_names;
            } else {
                if (columns && decode_name(data, b, b + v, streamNames, n.stream_names) != 0)
                    return -1;
                ++n.stream_names;
            }
        } else if (wire == kVarint && (field == 4 || field == 5)) {
            if (read_varint(&c, &v) != 0)
                return -1;
            if (field == 4)
                n.dropped = v;
            else
                n.delivered = v;
        } else if (skip(&c, wire) != 0) {
            return -1;
        }
    }
    *counts = n;
    return 0;
}

/* First pass: how many samples and names the batch holds (to size the columns), dropped, delivered. */
int ts_count(const uint8_t* data, size_t size, ts_counts* counts)
{
    return walk(data, size, counts, NULL, NULL, NULL);
}

/* Second pass: fills the columns and the name tables, sized by ts_count. */
int ts_decode(const uint8_t* data, size_t size, const ts_columns* columns, const ts_names* parameterNames,
              const ts_names* streamNames)
{
    ts_counts counts;
    return walk(data, size, &counts, columns, parameterNames, streamNames);
}
