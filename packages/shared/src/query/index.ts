export * from './lexer';
export * from './parser';
export * from './fields';
