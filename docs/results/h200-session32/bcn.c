// Build cost of one program from source against from its own binary, per process (argv[1]: platform name part, argv[2]: save|binary|source)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
const char* src=
"__kernel void syr2k(__global float* a, __global float* b, __global float* c, float alpha, float beta, int m, int n){\n"
" int j=get_global_id(0), i=get_global_id(1); if(i<n && j<n){ float acc=c[i*n+j]*beta;\n"
" for(int k=0;k<m;k++) acc+=alpha*a[i*m+k]*b[j*m+k]+alpha*b[i*m+k]*a[j*m+k]; c[i*n+j]=acc; }}\n"
"__kernel void k2(__global float* a, __global const float* b, int n){int i=get_global_id(0); if(i<n) a[i]+=2*b[i];}\n";
int main(int argc,char**argv){
 cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8,ps,&np); cl_platform_id p=0;
 for(cl_uint i=0;i<np;i++){char nm[256]; clGetPlatformInfo(ps[i],CL_PLATFORM_NAME,256,nm,0); if(strstr(nm,argv[1])) p=ps[i];}
 if(!p){printf("no platform %s\n",argv[1]);return 1;}
 cl_device_id d; clGetDeviceIDs(p,CL_DEVICE_TYPE_ALL,1,&d,0);
 cl_context c=clCreateContext(0,1,&d,0,0,0); cl_int e;
 char bf[256]; snprintf(bf,256,"/tmp/bin-%s",argv[1]);
 double t0=now(); cl_program pr;
 if(strcmp(argv[2],"binary")){ pr=clCreateProgramWithSource(c,1,&src,0,0); e=clBuildProgram(pr,1,&d,"-cl-kernel-arg-info",0,0);
   if(!strcmp(argv[2],"save")){size_t sz; clGetProgramInfo(pr,CL_PROGRAM_BINARY_SIZES,sizeof sz,&sz,0); unsigned char* bin=malloc(sz); clGetProgramInfo(pr,CL_PROGRAM_BINARIES,sizeof bin,&bin,0); FILE*f=fopen(bf,"wb"); fwrite(bin,1,sz,f); fclose(f);} }
 else { FILE*f=fopen(bf,"rb"); static unsigned char buf[1<<22]; size_t sz=fread(buf,1,sizeof buf,f); fclose(f); const unsigned char* cb=buf; cl_int bs;
   pr=clCreateProgramWithBinary(c,1,&d,&sz,&cb,&bs,&e); e=clBuildProgram(pr,1,&d,"-cl-kernel-arg-info",0,0);}
 double t1=now();
 cl_kernel k=clCreateKernel(pr,"k2",&e);
 char name[64]={0}; cl_int ai=clGetKernelArgInfo(k,1,CL_KERNEL_ARG_TYPE_NAME,64,name,0);
 cl_kernel_arg_address_qualifier aq=0; clGetKernelArgInfo(k,1,CL_KERNEL_ARG_ADDRESS_QUALIFIER,sizeof aq,&aq,0);
 char bl[4096]={0}; clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof bl,bl,0);
 int n=1<<20; cl_mem a=clCreateBuffer(c,CL_MEM_READ_WRITE,n*4,0,&e), b=clCreateBuffer(c,CL_MEM_READ_WRITE,n*4,0,&e);
 cl_command_queue q=clCreateCommandQueueWithProperties(c,d,0,&e);
 clSetKernelArg(k,0,sizeof a,&a); clSetKernelArg(k,1,sizeof b,&b); clSetKernelArg(k,2,4,&n);
 size_t g=n,l=64; double t2=now(); clEnqueueNDRangeKernel(q,k,1,0,&g,&l,0,0,0); clFinish(q); double t3=now();
 printf("%s %s: build %.2f ms, arginfo %d '%s' aq %x, log %zu bytes, first launch %.2f ms\n",argv[1],argv[2],t1-t0,ai,name,aq,strlen(bl),t3-t2);
 return 0;
}
