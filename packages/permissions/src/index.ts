export type {
  CardDecision,
  CardKind,
  CardRecord,
  CardStatus,
  CardStore,
  ListCardsFilter,
  LoopCounterStore,
  NewCard,
  RelayUnlock,
  UnlockHow,
  UnlockStore,
} from "./ports";
