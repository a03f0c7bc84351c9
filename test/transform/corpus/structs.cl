// Structs: particles updated member-wise (float4 members), items stored as a whole struct of
// 4-byte members, and a struct passed by value.
//@ kernel particles_step
//@ ndrange 1 global=96 local=8
//@ arg p global float 768 rand rw elem=?
//@ arg dt value float 0.01
//@ arg g value float 9.81
//@ expect splittable
//@ kernel scale_items
//@ ndrange 1 global=128 local=16
//@ arg items global int 256 randint:-100:100 rw elem=?
//@ arg prm value float,int 1.5,40
//@ expect splittable
typedef struct {
    float4 pos;
    float4 vel;
} Particle;

typedef struct {
    int id;
    float mass;
} Item;

typedef struct {
    float scale;
    int limit;
} Params;

__kernel void particles_step(__global Particle *p, float dt, float g)
{
    size_t i = get_global_id(0);
    float4 v = p[i].vel;
    v.y -= g * dt;
    p[i].vel = v;
    p[i].pos += v * dt;
}

__kernel void scale_items(__global Item *items, Params prm)
{
    size_t i = get_global_id(0);
    Item it = items[i];
    if (it.id > prm.limit)
        return;
    it.mass = it.mass * prm.scale + (float)it.id;
    it.id += 1;
    items[i] = it;
}
