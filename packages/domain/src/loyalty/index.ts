/** The loyalty programme of issue 30: settings as data (programme) and its pure rules (earn). */
export * from './programme.ts';
export * from './earn.ts';
export * from './view.ts';
