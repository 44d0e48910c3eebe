import { Global, Module, type DynamicModule } from '@nestjs/common';
import { JOB_QUEUE_OPTIONS, JobQueue, type JobQueueOptions } from './job-queue.js';

/** The durable job queue (`JobQueue`), available to every module. */
@Global()
@Module({})
export class JobsModule {
  static forRoot(options: JobQueueOptions): DynamicModule {
    return {
      module: JobsModule,
      providers: [{ provide: JOB_QUEUE_OPTIONS, useValue: options }, JobQueue],
      exports: [JobQueue],
    };
  }
}
