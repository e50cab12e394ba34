struct node {
  __global struct node *next;
  int value;
};
__kernel void walk(__global struct node *head, __global int *out) {
  int sum = 0;
  for (__global struct node *p = head; p; p = p->next) {
    sum += p->value;
  }
  out[get_global_id(0)] = sum;
}
