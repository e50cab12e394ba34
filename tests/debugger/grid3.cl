typedef struct { float x; int id; uchar tag; } rec_t;

inline int cell(int x, int y, int z)
{
    int w = get_global_size(0) * (y + get_global_size(1) * z);
    return w + x;
}

__kernel void grid3(__global int *out, __global rec_t *recs)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int z = get_global_id(2);
    int c = cell(x, y, z);
    __global rec_t *mine = x == 1 && y == 0 ? &recs[c] : 0;
    if (mine)
        printf("item %d %d %d cell %d\n", x, y, z, c);
    recs[c].x = c * 0.5f + z;
    recs[c].id = c;
    recs[c].tag = (uchar)('a' + (c % 26));
    out[c] = (int)(get_local_id(1) * 2 + get_local_id(0)) * 100 + c;
}
