export { exchangeCode, pkcePair, signIn, type Tokens } from '../../server/cli/passwordSignIn';
