export * from './common';
export * from './auth';
export * from './users';
export * from './companies';
export * from './projects';
export * from './tasks';
export * from './permissions';
export * from './reports';
