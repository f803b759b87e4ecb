export * from './common';
export * from './auth';
export * from './users';
export * from './companies';
export * from './permissions';
