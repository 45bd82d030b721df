import type { Db } from "../client.js";
import {
  beneficios,
  cuidadosPos,
  procedimentoBeneficios,
  procedimentoCuidados,
  procedimentoRiscos,
  procedimentos,
  riscos,
} from "../schema.js";

/**
 * The demo clinic's library: procedures across specialties, each linked to its own risks,
 * benefits and aftercare, written as a Brazilian clinic would in a TCLE. Items are keyed so a
 * procedure names them by key (checked by the compiler) and several procedures can share one.
 */

interface Risco {
  titulo: string;
  descricao: string;
  categoria: "Comum" | "Raro" | "Grave";
}

interface Beneficio {
  titulo: string;
  descricao: string;
  categoria: "Estético" | "Funcional" | "Saúde" | "Qualidade de vida";
}

interface Cuidado {
  titulo: string;
  descricao: string;
  periodo: string;
}

const RISCOS = {
  infeccao: {
    titulo: "Infecção",
    descricao:
      "Infecção no local do procedimento, que pode exigir uso de antibióticos, drenagem ou, raramente, nova intervenção.",
    categoria: "Raro",
  },
  sangramento: {
    titulo: "Sangramento",
    descricao:
      "Sangramento durante ou após o procedimento, que pode exigir compressão, revisão cirúrgica ou, raramente, transfusão de sangue.",
    categoria: "Raro",
  },
  hematoma: {
    titulo: "Hematoma",
    descricao:
      "Acúmulo de sangue sob a pele ou nos tecidos operados, que em geral é reabsorvido, mas pode precisar ser drenado.",
    categoria: "Comum",
  },
  edemaEquimose: {
    titulo: "Inchaço e manchas roxas",
    descricao:
      "Edema e equimoses na região tratada, esperados após o procedimento, que regridem gradualmente nas primeiras semanas.",
    categoria: "Comum",
  },
  dor: {
    titulo: "Dor pós-operatória",
    descricao:
      "Dor ou desconforto no local operado nos primeiros dias, em geral controlados com os analgésicos prescritos.",
    categoria: "Comum",
  },
  cicatriz: {
    titulo: "Cicatriz hipertrófica ou queloide",
    descricao:
      "Cicatriz elevada, avermelhada ou alargada, que depende da predisposição individual e pode exigir tratamento complementar.",
    categoria: "Raro",
  },
  assimetria: {
    titulo: "Assimetria",
    descricao:
      "Pequenas diferenças entre os lados tratados, já que o corpo humano não é simétrico; algumas podem ser corrigidas com retoque.",
    categoria: "Raro",
  },
  resultadoAquem: {
    titulo: "Resultado aquém do esperado",
    descricao:
      "O resultado depende das características de cada paciente e da cicatrização, não podendo ser garantido; pode ser necessário retoque ou nova intervenção.",
    categoria: "Raro",
  },
  anestesia: {
    titulo: "Complicações anestésicas",
    descricao:
      "Reações aos anestésicos, desde náuseas e vômitos até, muito raramente, reações alérgicas graves e eventos cardiorrespiratórios.",
    categoria: "Grave",
  },
  trombose: {
    titulo: "Trombose venosa profunda e embolia pulmonar",
    descricao:
      "Formação de coágulos nas veias das pernas que podem se deslocar até os pulmões; o risco é maior em cirurgias longas e com pouca movimentação.",
    categoria: "Grave",
  },
  seroma: {
    titulo: "Seroma",
    descricao:
      "Acúmulo de líquido sob a pele na área operada, que pode exigir punções no consultório para esvaziamento.",
    categoria: "Comum",
  },
  sensibilidade: {
    titulo: "Alteração de sensibilidade",
    descricao:
      "Dormência, formigamento ou aumento da sensibilidade na região, geralmente temporários, podendo raramente ser permanentes.",
    categoria: "Comum",
  },
  olhoSeco: {
    titulo: "Ressecamento ocular",
    descricao: "Sensação de olho seco, ardência, lacrimejamento ou sensibilidade à luz nas primeiras semanas.",
    categoria: "Comum",
  },
  ectropio: {
    titulo: "Ectrópio",
    descricao: "Eversão da margem da pálpebra inferior para fora, que pode exigir massagens ou correção cirúrgica.",
    categoria: "Raro",
  },
  ptose: {
    titulo: "Queda da pálpebra ou da sobrancelha",
    descricao:
      "Ptose temporária causada pela difusão da toxina para músculos vizinhos, que regride espontaneamente em algumas semanas.",
    categoria: "Raro",
  },
  cefaleia: {
    titulo: "Dor de cabeça",
    descricao: "Cefaleia leve nas primeiras 24 a 48 horas após a aplicação.",
    categoria: "Comum",
  },
  reacaoLocal: {
    titulo: "Reação no local da aplicação",
    descricao:
      "Dor, vermelhidão, inchaço e pequenos hematomas nos pontos de aplicação, que desaparecem em poucos dias.",
    categoria: "Comum",
  },
  alergia: {
    titulo: "Reação alérgica ao produto",
    descricao:
      "Reação de hipersensibilidade ao produto aplicado, em geral leve e local, podendo raramente ser generalizada.",
    categoria: "Raro",
  },
  nodulos: {
    titulo: "Nódulos e irregularidades",
    descricao:
      "Pequenos caroços palpáveis ou visíveis no local, que podem exigir massagem ou aplicação de hialuronidase.",
    categoria: "Raro",
  },
  oclusaoVascular: {
    titulo: "Oclusão vascular",
    descricao:
      "Obstrução de um vaso sanguíneo pelo produto, que pode causar necrose da pele e, muito raramente, alteração visual; exige tratamento imediato.",
    categoria: "Grave",
  },
  obstrucaoNasal: {
    titulo: "Obstrução nasal",
    descricao:
      "Dificuldade para respirar pelo nariz, geralmente temporária pelo inchaço, podendo raramente persistir e exigir correção.",
    categoria: "Comum",
  },
  contraturaCapsular: {
    titulo: "Contratura capsular",
    descricao:
      "Endurecimento da cápsula que se forma ao redor do implante, podendo causar dor e deformidade e exigir nova cirurgia.",
    categoria: "Raro",
  },
  rupturaImplante: {
    titulo: "Ruptura ou deslocamento do implante",
    descricao:
      "O implante mamário pode se romper ou mudar de posição ao longo dos anos, exigindo acompanhamento por imagem e eventual troca.",
    categoria: "Raro",
  },
  irregularidadesContorno: {
    titulo: "Irregularidades de contorno",
    descricao: "Ondulações, depressões ou flacidez de pele na área aspirada, que podem exigir tratamento complementar.",
    categoria: "Comum",
  },
  lesaoViaBiliar: {
    titulo: "Lesão da via biliar",
    descricao: "Lesão dos ductos que conduzem a bile, que pode exigir procedimento endoscópico ou nova cirurgia.",
    categoria: "Grave",
  },
  conversao: {
    titulo: "Conversão para cirurgia aberta",
    descricao:
      "Necessidade de ampliar a incisão durante o procedimento por dificuldade técnica ou por segurança do paciente.",
    categoria: "Raro",
  },
  recidivaHernia: {
    titulo: "Recidiva da hérnia",
    descricao: "Reaparecimento da hérnia meses ou anos após a correção, podendo exigir nova cirurgia.",
    categoria: "Raro",
  },
  dorInguinalCronica: {
    titulo: "Dor inguinal crônica",
    descricao: "Dor persistente na virilha por irritação ou lesão de nervos da região.",
    categoria: "Raro",
  },
  alveolite: {
    titulo: "Alveolite",
    descricao:
      "Inflamação do alvéolo após a extração, com dor intensa a partir do terceiro dia, tratada no consultório.",
    categoria: "Comum",
  },
  parestesia: {
    titulo: "Parestesia de lábio, queixo ou língua",
    descricao:
      "Dormência por proximidade com os nervos alveolar inferior ou lingual, geralmente temporária, podendo raramente ser permanente.",
    categoria: "Raro",
  },
  trismo: {
    titulo: "Trismo",
    descricao: "Limitação temporária da abertura da boca por inflamação dos músculos da mastigação.",
    categoria: "Comum",
  },
  falhaOsseointegracao: {
    titulo: "Falha na osseointegração",
    descricao: "O implante pode não se integrar ao osso e precisar ser removido e recolocado após nova cicatrização.",
    categoria: "Raro",
  },
  periImplantite: {
    titulo: "Peri-implantite",
    descricao:
      "Inflamação da gengiva e do osso ao redor do implante, favorecida por higiene inadequada e tabagismo, que pode levar à perda do implante.",
    categoria: "Raro",
  },
  sensibilidadeDental: {
    titulo: "Sensibilidade dentária",
    descricao: "Sensibilidade ao frio e ao calor durante o tratamento e logo após, transitória.",
    categoria: "Comum",
  },
  irritacaoGengival: {
    titulo: "Irritação gengival",
    descricao: "Ardência ou esbranquiçamento temporário da gengiva pelo contato com o gel clareador.",
    categoria: "Comum",
  },
  restauracoesNaoClareiam: {
    titulo: "Diferença de cor em restaurações",
    descricao:
      "Restaurações, facetas e coroas não clareiam e podem precisar ser trocadas para acompanhar a nova cor dos dentes.",
    categoria: "Comum",
  },
  hiperpigmentacao: {
    titulo: "Hiperpigmentação pós-inflamatória",
    descricao: "Manchas escuras na pele tratada, mais frequentes em peles morenas e negras e com exposição ao sol.",
    categoria: "Comum",
  },
  eritemaDescamacao: {
    titulo: "Vermelhidão e descamação",
    descricao: "Eritema, ardor e descamação da pele nos dias seguintes, esperados para o procedimento.",
    categoria: "Comum",
  },
  herpes: {
    titulo: "Reativação de herpes labial",
    descricao: "Surgimento de lesões de herpes em pacientes com histórico da doença; pode ser prevenido com antiviral.",
    categoria: "Raro",
  },
  lesaoDuctoParotideo: {
    titulo: "Lesão do ducto parotídeo ou do nervo facial",
    descricao:
      "Lesão de estruturas próximas à bola de Bichat, que pode causar acúmulo de saliva ou fraqueza de músculos da face.",
    categoria: "Raro",
  },
} as const satisfies Record<string, Risco>;

const BENEFICIOS = {
  rejuvenescimentoOlhar: {
    titulo: "Rejuvenescimento do olhar",
    descricao: "Remoção do excesso de pele e das bolsas de gordura das pálpebras, com aparência mais descansada.",
    categoria: "Estético",
  },
  campoVisual: {
    titulo: "Melhora do campo visual",
    descricao: "Quando o excesso de pele da pálpebra superior encobre a visão, a cirurgia amplia o campo visual.",
    categoria: "Funcional",
  },
  suavizacaoRugas: {
    titulo: "Suavização das rugas de expressão",
    descricao: "Redução das linhas da testa, da glabela e dos pés de galinha, com aspecto descansado e natural.",
    categoria: "Estético",
  },
  ambulatorial: {
    titulo: "Procedimento rápido, sem internação",
    descricao: "Realizado no consultório, com anestesia local ou tópica e retorno breve às atividades habituais.",
    categoria: "Qualidade de vida",
  },
  volumeContorno: {
    titulo: "Reposição de volume e contorno facial",
    descricao: "Restaura o volume perdido em lábios, malar, olheiras e sulcos, com resultado natural e imediato.",
    categoria: "Estético",
  },
  reversivel: {
    titulo: "Resultado reversível",
    descricao:
      "O ácido hialurônico é absorvido pelo organismo com o tempo e pode ser dissolvido com hialuronidase se necessário.",
    categoria: "Saúde",
  },
  harmoniaNasal: {
    titulo: "Harmonia do nariz com o rosto",
    descricao: "Correção de giba, ponta ou largura do nariz, em proporção com os demais traços da face.",
    categoria: "Estético",
  },
  respiracaoNasal: {
    titulo: "Melhora da respiração nasal",
    descricao: "Correção de desvio de septo ou de insuficiência da válvula nasal, quando associada à cirurgia.",
    categoria: "Funcional",
  },
  autoestima: {
    titulo: "Melhora da autoestima",
    descricao: "Maior satisfação com a própria imagem e mais segurança nas relações pessoais e profissionais.",
    categoria: "Qualidade de vida",
  },
  volumeMamas: {
    titulo: "Aumento e simetria das mamas",
    descricao: "Aumento do volume e melhora da forma e da simetria das mamas, em proporção com o corpo.",
    categoria: "Estético",
  },
  contornoCorporal: {
    titulo: "Melhora do contorno corporal",
    descricao: "Redução de gordura localizada resistente a dieta e exercícios, com silhueta mais definida.",
    categoria: "Estético",
  },
  resolucaoColica: {
    titulo: "Fim das crises de cólica biliar",
    descricao: "A retirada da vesícula com cálculos elimina a causa das dores após as refeições.",
    categoria: "Saúde",
  },
  prevencaoBiliar: {
    titulo: "Prevenção de complicações dos cálculos",
    descricao: "Evita colecistite aguda, pancreatite e icterícia obstrutiva causadas pela migração dos cálculos.",
    categoria: "Saúde",
  },
  recuperacaoRapida: {
    titulo: "Recuperação mais rápida",
    descricao: "Incisões pequenas, menos dor e retorno mais precoce às atividades do que na cirurgia aberta.",
    categoria: "Qualidade de vida",
  },
  correcaoHernia: {
    titulo: "Correção do abaulamento e do desconforto",
    descricao: "Fechamento do defeito da parede abdominal, com alívio da dor e do abaulamento na virilha.",
    categoria: "Funcional",
  },
  prevencaoEncarceramento: {
    titulo: "Prevenção do encarceramento",
    descricao: "Evita que o intestino fique preso na hérnia, situação de urgência com risco de estrangulamento.",
    categoria: "Saúde",
  },
  prevencaoSiso: {
    titulo: "Prevenção de infecções e danos aos dentes vizinhos",
    descricao: "Evita pericoronarite, cáries e reabsorção do segundo molar causadas pelo siso incluso ou semi-incluso.",
    categoria: "Saúde",
  },
  alivioDor: {
    titulo: "Alívio da dor",
    descricao: "Elimina a dor e o inchaço recorrentes causados pelo dente.",
    categoria: "Saúde",
  },
  mastigacao: {
    titulo: "Reabilitação da mastigação",
    descricao: "Devolve a função mastigatória com um dente fixo, firme como um dente natural.",
    categoria: "Funcional",
  },
  preservacaoOssea: {
    titulo: "Preservação do osso e dos dentes vizinhos",
    descricao: "O implante estimula o osso e dispensa o desgaste dos dentes vizinhos exigido por uma ponte fixa.",
    categoria: "Saúde",
  },
  esteticaSorriso: {
    titulo: "Estética do sorriso",
    descricao: "Sorriso mais harmônico e natural, com dentes de cor e forma adequadas.",
    categoria: "Estético",
  },
  dentesMaisClaros: {
    titulo: "Dentes mais claros",
    descricao: "Clareia em vários tons a cor natural dos dentes, sem desgaste da estrutura dental.",
    categoria: "Estético",
  },
  texturaPele: {
    titulo: "Melhora da textura e do viço da pele",
    descricao: "Renovação das camadas superficiais da pele, com poros menos aparentes e pele mais uniforme.",
    categoria: "Estético",
  },
  manchas: {
    titulo: "Atenuação de manchas",
    descricao: "Clareamento de melasma, manchas solares e marcas pós-acne.",
    categoria: "Estético",
  },
  controleAcne: {
    titulo: "Controle da acne e da oleosidade",
    descricao: "Redução de cravos, espinhas e oleosidade, como complemento ao tratamento clínico da acne.",
    categoria: "Saúde",
  },
  afinamentoFace: {
    titulo: "Afinamento do terço inferior da face",
    descricao: "Redução do volume das bochechas, com contorno facial mais definido.",
    categoria: "Estético",
  },
} as const satisfies Record<string, Beneficio>;

const CUIDADOS = {
  repousoRelativo: {
    titulo: "Repouso relativo",
    descricao:
      "Evitar esforço físico, serviços domésticos pesados e exercícios; caminhar dentro de casa é permitido e recomendado.",
    periodo: "7 dias",
  },
  compressasFrias: {
    titulo: "Compressas frias",
    descricao:
      "Aplicar compressas geladas envoltas em pano limpo por 15 minutos, várias vezes ao dia, para reduzir o inchaço.",
    periodo: "Primeiras 48 horas",
  },
  cabeceiraElevada: {
    titulo: "Dormir com a cabeceira elevada",
    descricao: "Manter a cabeça elevada com dois travesseiros e evitar dormir de lado ou de bruços.",
    periodo: "7 dias",
  },
  medicacao: {
    titulo: "Medicações prescritas",
    descricao:
      "Tomar analgésicos, anti-inflamatórios e antibióticos nos horários indicados; não usar ácido acetilsalicílico nem se automedicar.",
    periodo: "7 dias",
  },
  protecaoSolar: {
    titulo: "Proteção solar rigorosa",
    descricao: "Usar filtro solar FPS 50 ou mais, reaplicando a cada 3 horas, e evitar exposição direta ao sol.",
    periodo: "30 dias",
  },
  curativo: {
    titulo: "Cuidados com o curativo",
    descricao: "Manter o curativo limpo e seco, trocar conforme orientação e não remover os pontos por conta própria.",
    periodo: "7 dias",
  },
  sinaisAlerta: {
    titulo: "Sinais de alerta",
    descricao:
      "Procurar a clínica imediatamente em caso de febre, dor intensa e progressiva, sangramento ativo, falta de ar, vermelhidão ou secreção no local.",
    periodo: "30 dias",
  },
  retornoRevisao: {
    titulo: "Consulta de revisão",
    descricao: "Comparecer à consulta de retorno agendada para avaliação e retirada dos pontos.",
    periodo: "7 dias",
  },
  naoFumar: {
    titulo: "Não fumar",
    descricao: "O cigarro prejudica a cicatrização e aumenta o risco de infecção e de outras complicações.",
    periodo: "30 dias",
  },
  naoDeitarMassagear: {
    titulo: "Não deitar nem massagear a região",
    descricao: "Permanecer sentado ou em pé por 4 horas e não massagear nem pressionar as áreas tratadas.",
    periodo: "Primeiras 4 horas",
  },
  evitarCalorExercicio: {
    titulo: "Evitar exercícios, calor e álcool",
    descricao: "Evitar academia, sauna, exposição ao calor intenso e bebidas alcoólicas.",
    periodo: "Primeiras 24 horas",
  },
  retornoAvaliacao: {
    titulo: "Retorno para avaliação do resultado",
    descricao: "O efeito completo aparece entre 7 e 15 dias; eventuais retoques são avaliados na consulta de retorno.",
    periodo: "15 dias",
  },
  colirio: {
    titulo: "Colírio lubrificante",
    descricao:
      "Usar colírio lubrificante e pomada oftálmica conforme prescrição; não usar lentes de contato nem maquiagem nos olhos.",
    periodo: "15 dias",
  },
  higieneNasal: {
    titulo: "Higiene nasal com soro fisiológico",
    descricao: "Lavar as narinas com soro fisiológico várias vezes ao dia e não assoar o nariz com força.",
    periodo: "15 dias",
  },
  semOculos: {
    titulo: "Não apoiar óculos no nariz",
    descricao: "Evitar óculos apoiados sobre o dorso nasal até a liberação pelo cirurgião.",
    periodo: "30 dias",
  },
  sutiaCirurgico: {
    titulo: "Uso contínuo do sutiã cirúrgico",
    descricao: "Usar o sutiã de compressão dia e noite, retirando-o apenas para o banho.",
    periodo: "30 dias",
  },
  bracos: {
    titulo: "Não elevar os braços nem carregar peso",
    descricao: "Não levantar os braços acima da altura dos ombros nem carregar objetos pesados.",
    periodo: "30 dias",
  },
  cinta: {
    titulo: "Uso contínuo da cinta compressiva",
    descricao: "Usar a malha compressiva dia e noite, retirando-a apenas para o banho.",
    periodo: "30 dias",
  },
  drenagem: {
    titulo: "Drenagem linfática",
    descricao: "Fazer sessões de drenagem linfática com profissional habilitado, a partir da liberação médica.",
    periodo: "30 dias",
  },
  caminharCedo: {
    titulo: "Caminhar desde o primeiro dia",
    descricao: "Levantar e caminhar em casa várias vezes ao dia, para ajudar a circulação e prevenir trombose.",
    periodo: "7 dias",
  },
  dietaLeve: {
    titulo: "Dieta leve e com pouca gordura",
    descricao: "Preferir alimentos leves, cozidos e com pouca gordura, e voltar à alimentação habitual aos poucos.",
    periodo: "7 dias",
  },
  esforcoAbdominal: {
    titulo: "Evitar peso e esforço abdominal",
    descricao: "Não levantar mais de 5 kg nem fazer exercícios abdominais até a liberação médica.",
    periodo: "30 dias",
  },
  dietaFriaPastosa: {
    titulo: "Alimentação fria e pastosa",
    descricao: "Preferir alimentos frios e pastosos; evitar alimentos quentes, duros, crocantes ou com sementes.",
    periodo: "Primeiras 48 horas",
  },
  naoBochechar: {
    titulo: "Não bochechar, cuspir nem usar canudo",
    descricao: "Evitar bochechos, cuspir e usar canudo, para não deslocar o coágulo formado no local.",
    periodo: "Primeiras 24 horas",
  },
  higieneBucal: {
    titulo: "Higiene bucal cuidadosa",
    descricao:
      "Escovar os dentes normalmente, com escova macia e cuidado na região operada, e usar o enxaguatório prescrito a partir do dia seguinte.",
    periodo: "7 dias",
  },
  dietaBranca: {
    titulo: "Dieta branca",
    descricao: "Evitar café, chá preto, refrigerantes à base de cola, vinho tinto, açaí, beterraba e molhos escuros.",
    periodo: "Durante o tratamento",
  },
  dessensibilizante: {
    titulo: "Gel dessensibilizante",
    descricao: "Usar o gel dessensibilizante ou creme dental para dentes sensíveis conforme orientação.",
    periodo: "Durante o tratamento",
  },
  moldeira: {
    titulo: "Uso correto da moldeira",
    descricao: "Usar a moldeira com gel pelo tempo indicado, sem excesso de produto, e guardá-la limpa e seca.",
    periodo: "Durante o tratamento",
  },
  naoArrancarPele: {
    titulo: "Não arrancar a pele que descama",
    descricao: "Deixar a descamação ocorrer naturalmente, sem esfoliar nem remover as películas.",
    periodo: "7 dias",
  },
  hidratacaoPele: {
    titulo: "Limpeza suave e hidratação",
    descricao:
      "Lavar o rosto com sabonete suave, aplicar o hidratante prescrito e suspender ácidos e retinoides até nova orientação.",
    periodo: "7 dias",
  },
} as const satisfies Record<string, Cuidado>;

type RiscoKey = keyof typeof RISCOS;
type BeneficioKey = keyof typeof BENEFICIOS;
type CuidadoKey = keyof typeof CUIDADOS;

interface Procedimento {
  nome: string;
  descricao: string;
  /** A specialty code of src/shared/reference/specialties.ts. */
  especialidade: string;
  /** Seen only by its creator (the owner) and the owner. */
  isPrivate?: boolean;
  riscos: RiscoKey[];
  beneficios: BeneficioKey[];
  cuidados: CuidadoKey[];
}

const PROCEDIMENTOS: Procedimento[] = [
  {
    nome: "Blefaroplastia",
    descricao:
      "Cirurgia das pálpebras superiores e/ou inferiores para retirada do excesso de pele e das bolsas de gordura, realizada sob anestesia local com sedação.",
    especialidade: "cirurgia_plastica",
    riscos: ["edemaEquimose", "hematoma", "olhoSeco", "ectropio", "assimetria", "cicatriz"],
    beneficios: ["rejuvenescimentoOlhar", "campoVisual", "autoestima"],
    cuidados: ["compressasFrias", "cabeceiraElevada", "colirio", "protecaoSolar", "retornoRevisao"],
  },
  {
    nome: "Aplicação de toxina botulínica",
    descricao:
      "Aplicação de toxina botulínica tipo A em pontos da musculatura da face para suavizar as rugas de expressão da testa, da glabela e da região dos olhos.",
    especialidade: "dermatologia",
    riscos: ["reacaoLocal", "cefaleia", "ptose", "assimetria", "alergia"],
    beneficios: ["suavizacaoRugas", "ambulatorial", "autoestima"],
    cuidados: ["naoDeitarMassagear", "evitarCalorExercicio", "retornoAvaliacao"],
  },
  {
    nome: "Preenchimento com ácido hialurônico",
    descricao:
      "Injeção de ácido hialurônico para repor volume e tratar sulcos, lábios, malar e olheiras, sob anestesia tópica ou local.",
    especialidade: "dermatologia",
    riscos: ["reacaoLocal", "nodulos", "assimetria", "infeccao", "alergia", "oclusaoVascular"],
    beneficios: ["volumeContorno", "reversivel", "ambulatorial"],
    cuidados: ["compressasFrias", "naoDeitarMassagear", "evitarCalorExercicio", "retornoAvaliacao"],
  },
  {
    nome: "Rinoplastia",
    descricao:
      "Cirurgia do nariz para corrigir forma e proporções, podendo incluir a correção do septo nasal, realizada sob anestesia geral.",
    especialidade: "cirurgia_plastica",
    riscos: ["edemaEquimose", "sangramento", "obstrucaoNasal", "assimetria", "resultadoAquem", "anestesia"],
    beneficios: ["harmoniaNasal", "respiracaoNasal", "autoestima"],
    cuidados: ["compressasFrias", "cabeceiraElevada", "higieneNasal", "semOculos", "protecaoSolar"],
  },
  {
    nome: "Mamoplastia de aumento",
    descricao:
      "Inclusão de implantes mamários de silicone por incisão no sulco inframamário, na aréola ou na axila, sob anestesia geral.",
    especialidade: "cirurgia_plastica",
    riscos: ["hematoma", "infeccao", "contraturaCapsular", "rupturaImplante", "sensibilidade", "anestesia"],
    beneficios: ["volumeMamas", "autoestima"],
    cuidados: ["sutiaCirurgico", "bracos", "repousoRelativo", "curativo", "sinaisAlerta"],
  },
  {
    nome: "Lipoaspiração",
    descricao:
      "Retirada de gordura localizada por meio de cânulas finas introduzidas por pequenas incisões, sob anestesia peridural ou geral.",
    especialidade: "cirurgia_plastica",
    riscos: ["seroma", "irregularidadesContorno", "edemaEquimose", "sensibilidade", "trombose", "anestesia"],
    beneficios: ["contornoCorporal", "autoestima"],
    cuidados: ["cinta", "drenagem", "caminharCedo", "repousoRelativo", "sinaisAlerta"],
  },
  {
    nome: "Colecistectomia videolaparoscópica",
    descricao:
      "Retirada da vesícula biliar por videolaparoscopia, indicada na colelitíase sintomática, sob anestesia geral.",
    especialidade: "cirurgia_geral",
    riscos: ["sangramento", "infeccao", "lesaoViaBiliar", "conversao", "trombose", "anestesia"],
    beneficios: ["resolucaoColica", "prevencaoBiliar", "recuperacaoRapida"],
    cuidados: ["dietaLeve", "caminharCedo", "esforcoAbdominal", "curativo", "sinaisAlerta"],
  },
  {
    nome: "Herniorrafia inguinal",
    descricao:
      "Correção cirúrgica da hérnia inguinal com colocação de tela de polipropileno, por via aberta ou videolaparoscópica.",
    especialidade: "cirurgia_geral",
    riscos: ["dor", "hematoma", "seroma", "infeccao", "recidivaHernia", "dorInguinalCronica"],
    beneficios: ["correcaoHernia", "prevencaoEncarceramento"],
    cuidados: ["esforcoAbdominal", "caminharCedo", "curativo", "retornoRevisao"],
  },
  {
    nome: "Extração de terceiro molar (siso)",
    descricao:
      "Remoção cirúrgica do dente do siso incluso ou semi-incluso, com osteotomia e odontossecção quando necessárias, sob anestesia local.",
    especialidade: "cirurgia_traumatologia_bucomaxilofaciais",
    riscos: ["edemaEquimose", "sangramento", "alveolite", "trismo", "parestesia", "infeccao"],
    beneficios: ["prevencaoSiso", "alivioDor"],
    cuidados: ["compressasFrias", "dietaFriaPastosa", "naoBochechar", "higieneBucal", "medicacao"],
  },
  {
    nome: "Implante dentário",
    descricao:
      "Instalação de implante de titânio no osso maxilar ou mandibular para suporte de coroa protética, sob anestesia local.",
    especialidade: "implantodontia",
    riscos: ["falhaOsseointegracao", "periImplantite", "parestesia", "infeccao", "edemaEquimose"],
    beneficios: ["mastigacao", "preservacaoOssea", "esteticaSorriso"],
    cuidados: ["dietaFriaPastosa", "naoBochechar", "higieneBucal", "naoFumar", "retornoRevisao"],
  },
  {
    nome: "Clareamento dental",
    descricao:
      "Clareamento dos dentes com gel de peróxido, em consultório e/ou caseiro com moldeira individual, sob supervisão do cirurgião-dentista.",
    especialidade: "dentistica",
    riscos: ["sensibilidadeDental", "irritacaoGengival", "restauracoesNaoClareiam", "resultadoAquem"],
    beneficios: ["dentesMaisClaros", "esteticaSorriso", "autoestima"],
    cuidados: ["dietaBranca", "dessensibilizante", "moldeira"],
  },
  {
    nome: "Peeling químico",
    descricao:
      "Aplicação de ácidos (como glicólico, salicílico ou ácido tricloroacético) para renovação controlada das camadas superficiais e médias da pele.",
    especialidade: "dermatologia",
    riscos: ["eritemaDescamacao", "hiperpigmentacao", "herpes", "infeccao", "cicatriz"],
    beneficios: ["texturaPele", "manchas", "controleAcne"],
    cuidados: ["protecaoSolar", "naoArrancarPele", "hidratacaoPele", "sinaisAlerta"],
  },
  {
    nome: "Bichectomia — protocolo Dr. Carlos",
    descricao:
      "Retirada parcial das bolas de Bichat por incisão na mucosa da boca, sob anestesia local, segundo o protocolo próprio do Dr. Carlos Eduardo Mendes.",
    especialidade: "cirurgia_plastica",
    isPrivate: true,
    riscos: ["edemaEquimose", "hematoma", "infeccao", "assimetria", "lesaoDuctoParotideo"],
    beneficios: ["afinamentoFace", "autoestima"],
    cuidados: ["compressasFrias", "dietaFriaPastosa", "higieneBucal", "retornoRevisao"],
  },
];

/** Looks up the id returned for each title; titles are unique within each constant. */
function idsByTitulo(rows: { id: string; titulo: string }[]): Map<string, string> {
  return new Map(rows.map((row) => [row.titulo, row.id]));
}

function idOf(ids: Map<string, string>, titulo: string): string {
  const id = ids.get(titulo);
  if (!id) throw new Error(`demo library: no id for "${titulo}"`);
  return id;
}

/**
 * Inserts the demo clinic's library (procedures, risks, benefits, aftercare and their links).
 * Called once, when the demo clinic is created; `createdBy` is the owner's profile.
 */
export async function seedDemoLibrary(db: Db, tenantId: string, createdBy: string): Promise<void> {
  await db.transaction(async (tx) => {
    const owned = { tenant_id: tenantId, created_by: createdBy };

    const riscoIds = idsByTitulo(
      await tx
        .insert(riscos)
        .values(Object.values(RISCOS).map((r) => ({ ...owned, ...r })))
        .returning({ id: riscos.id, titulo: riscos.titulo }),
    );
    const beneficioIds = idsByTitulo(
      await tx
        .insert(beneficios)
        .values(Object.values(BENEFICIOS).map((b) => ({ ...owned, ...b })))
        .returning({ id: beneficios.id, titulo: beneficios.titulo }),
    );
    const cuidadoIds = idsByTitulo(
      await tx
        .insert(cuidadosPos)
        .values(Object.values(CUIDADOS).map((c) => ({ ...owned, ...c })))
        .returning({ id: cuidadosPos.id, titulo: cuidadosPos.titulo }),
    );

    const procedimentoRows = await tx
      .insert(procedimentos)
      .values(
        PROCEDIMENTOS.map((p) => ({
          ...owned,
          nome: p.nome,
          descricao: p.descricao,
          especialidade: p.especialidade,
          is_private: p.isPrivate ?? false,
        })),
      )
      .returning({ id: procedimentos.id, nome: procedimentos.nome });
    const procedimentoIds = new Map(procedimentoRows.map((row) => [row.nome, row.id]));

    const links = PROCEDIMENTOS.map((p) => ({ p, procedimento_id: idOf(procedimentoIds, p.nome) }));
    await tx.insert(procedimentoRiscos).values(
      links.flatMap(({ p, procedimento_id }) =>
        p.riscos.map((key) => ({
          tenant_id: tenantId,
          procedimento_id,
          risco_id: idOf(riscoIds, RISCOS[key].titulo),
        })),
      ),
    );
    await tx.insert(procedimentoBeneficios).values(
      links.flatMap(({ p, procedimento_id }) =>
        p.beneficios.map((key) => ({
          tenant_id: tenantId,
          procedimento_id,
          beneficio_id: idOf(beneficioIds, BENEFICIOS[key].titulo),
        })),
      ),
    );
    await tx.insert(procedimentoCuidados).values(
      links.flatMap(({ p, procedimento_id }) =>
        p.cuidados.map((key) => ({
          tenant_id: tenantId,
          procedimento_id,
          cuidado_id: idOf(cuidadoIds, CUIDADOS[key].titulo),
        })),
      ),
    );
  });
}
